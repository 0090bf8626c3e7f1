// Reference for level2/81 (Gemm + Swish + divide + clamp + Tanh + clamp):
// clamp(tanh(clamp(swish(linear(x)) / 2.0, -1, 1)), -1, 1), swish(z) = z * sigmoid(z).
#include <torch/torch.h>

constexpr double kDivisor = 2.0;
constexpr double kClampMin = -1.0;
constexpr double kClampMax = 1.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor z = torch::nn::functional::linear(x, weight, bias);
  z = z * torch::sigmoid(z);
  z = torch::clamp(z / kDivisor, kClampMin, kClampMax);
  return torch::clamp(torch::tanh(z), kClampMin, kClampMax);
}
