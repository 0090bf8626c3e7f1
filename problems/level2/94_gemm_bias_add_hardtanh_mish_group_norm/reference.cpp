// Reference for level2/94 (Gemm + bias add + Hardtanh + Mish + GroupNorm):
// group_norm(mish(hardtanh(linear(x, gemm_weight, gemm_bias) + bias, -1, 1)), 256 groups,
// eps 1e-5).
#include <torch/torch.h>

constexpr double kHardtanhMin = -1.0;
constexpr double kHardtanhMax = 1.0;
constexpr int64_t kGroups = 256;
constexpr double kEps = 1e-5;  // nn.GroupNorm default

torch::Tensor forward(torch::Tensor x, torch::Tensor gemm_weight, torch::Tensor gemm_bias,
                      torch::Tensor bias, torch::Tensor gn_weight, torch::Tensor gn_bias) {
  torch::Tensor z = torch::nn::functional::linear(x, gemm_weight, gemm_bias);
  z = z + bias;
  z = torch::hardtanh(z, kHardtanhMin, kHardtanhMax);
  z = torch::mish(z);
  return torch::group_norm(z, kGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true);
}
