// Reference for level2/86 (Matmul + divide + GELU):
// gelu((x @ weight^T + bias) / 10.0), exact (erf) GELU.
#include <torch/torch.h>

constexpr double kDivisor = 10.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor z = torch::nn::functional::linear(x, weight, bias) / kDivisor;
  return torch::gelu(z);  // exact (erf) GELU, PyTorch's default
}
