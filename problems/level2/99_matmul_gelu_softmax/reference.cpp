// Reference for level2/99 (Matmul + GELU + softmax):
// softmax(gelu(linear(x, weight, bias)), dim 1), exact (erf) GELU.
#include <torch/torch.h>

constexpr int64_t kFeatureDim = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor z = torch::nn::functional::linear(x, weight, bias);
  return torch::softmax(torch::gelu(z), kFeatureDim);
}
