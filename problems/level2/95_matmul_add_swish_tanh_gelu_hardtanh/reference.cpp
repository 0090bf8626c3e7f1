// Reference for level2/95 (Matmul + add + Swish + tanh + GELU + Hardtanh):
// z = linear(x, weight, bias) + add_value; z = sigmoid(z) * z;
// return hardtanh(gelu(tanh(z)), -1, 1), exact (erf) GELU.
#include <torch/torch.h>

constexpr double kHardtanhMin = -1.0;
constexpr double kHardtanhMax = 1.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                      torch::Tensor add_value) {
  torch::Tensor z = torch::nn::functional::linear(x, weight, bias);
  z = z + add_value;
  z = torch::sigmoid(z) * z;
  z = torch::tanh(z);
  z = torch::gelu(z);
  return torch::hardtanh(z, kHardtanhMin, kHardtanhMax);
}
