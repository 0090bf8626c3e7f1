// Reference for level2/88 (Gemm + GroupNorm + Swish + multiply + Swish):
// z = group_norm(linear(x, weight, bias), 256 groups, eps 1e-5); z = z * sigmoid(z);
// z = z * multiply_weight; return z * sigmoid(z).
#include <torch/torch.h>

constexpr int64_t kGroups = 256;
constexpr double kEps = 1e-5;  // nn.GroupNorm default

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                      torch::Tensor gn_weight, torch::Tensor gn_bias,
                      torch::Tensor multiply_weight) {
  torch::Tensor z = torch::nn::functional::linear(x, weight, bias);
  z = torch::group_norm(z, kGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true);
  z = z * torch::sigmoid(z);
  z = z * multiply_weight;
  return z * torch::sigmoid(z);
}
