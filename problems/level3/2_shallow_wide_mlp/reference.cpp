// Reference for level3/2 (ShallowWideMLP): Linear -> ReLU -> Linear -> ReLU -> Linear,
// 16384 -> 32768 -> 32768 -> 16384 at full size.
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor x, torch::Tensor w1, torch::Tensor b1, torch::Tensor w2,
                      torch::Tensor b2, torch::Tensor w3, torch::Tensor b3) {
  namespace F = torch::nn::functional;
  torch::Tensor h = torch::relu(F::linear(x, w1, b1));
  h = torch::relu(F::linear(h, w2, b2));
  return F::linear(h, w3, b3);
}
