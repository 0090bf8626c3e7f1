// Reference for level2/53 (Gemm + scaling + Hardtanh + GELU):
// gelu(hardtanh(linear(x, weight, bias) * 0.5, -2, 2)), exact (erf) GELU.
#include <torch/torch.h>

constexpr double kScalingFactor = 0.5;
constexpr double kHardtanhMin = -2.0;
constexpr double kHardtanhMax = 2.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor y = torch::nn::functional::linear(x, weight, bias) * kScalingFactor;
  y = torch::hardtanh(y, kHardtanhMin, kHardtanhMax);
  return torch::gelu(y);
}
