// Reference for level2/29 (Matmul + Mish + Mish):
// mish(mish(linear(x, w, b))), mish(v) = v * tanh(softplus(v)).
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor y = torch::nn::functional::linear(x, weight, bias);
  y = torch::mish(y);
  return torch::mish(y);
}
