// Reference for level2/66 (Matmul + dropout + softmax):
// softmax(linear(x, weight, bias) * (keep * 1.25), dim 1): dropout with p = 0.2 and the mask
// given as an input, scaled as PyTorch scales it.
#include <torch/torch.h>

constexpr double kDropoutP = 0.2;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, torch::Tensor keep) {
  torch::Tensor z = torch::nn::functional::linear(x, weight, bias);
  z = z * (keep * (1.0 / (1.0 - kDropoutP)));  // PyTorch scales the mask, then multiplies
  return torch::softmax(z, /*dim=*/1);
}
