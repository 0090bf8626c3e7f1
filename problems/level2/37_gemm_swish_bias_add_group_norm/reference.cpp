// Reference for level2/37 (Gemm + Swish + bias add + GroupNorm):
// group_norm(sigmoid(v) * v + bias, 64 groups, eps 1e-5), v = linear(x, weight, linear_bias).
#include <torch/torch.h>

constexpr int64_t kGroups = 64;
constexpr double kEps = 1e-5;  // nn.GroupNorm default

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor linear_bias,
                      torch::Tensor bias, torch::Tensor gn_weight, torch::Tensor gn_bias) {
  torch::Tensor y = torch::nn::functional::linear(x, weight, linear_bias);
  y = torch::sigmoid(y) * y + bias;
  return torch::group_norm(y, kGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true);
}
