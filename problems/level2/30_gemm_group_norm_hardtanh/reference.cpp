// Reference for level2/30 (Gemm + GroupNorm + Hardtanh):
// hardtanh(group_norm(linear(x, weight, bias), 16 groups, eps 1e-5), -2, 2).
#include <torch/torch.h>

constexpr int64_t kGroups = 16;
constexpr double kEps = 1e-5;  // nn.GroupNorm default
constexpr double kHardtanhMin = -2.0;
constexpr double kHardtanhMax = 2.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                      torch::Tensor gn_weight, torch::Tensor gn_bias) {
  torch::Tensor y = torch::nn::functional::linear(x, weight, bias);
  y = torch::group_norm(y, kGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true);
  return torch::hardtanh(y, kHardtanhMin, kHardtanhMax);
}
