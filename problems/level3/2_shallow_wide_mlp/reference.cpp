// Reference for level3/2 (ShallowWideMLP): Linear -> ReLU -> Linear -> ReLU -> Linear,
// 16384 -> 32768 -> 32768 -> 16384 at full size.
#include <torch/torch.h>

#include <vector>

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor w1 = next();
  torch::Tensor b1 = next();
  torch::Tensor w2 = next();
  torch::Tensor b2 = next();
  torch::Tensor w3 = next();
  torch::Tensor b3 = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  torch::Tensor h = torch::relu(F::linear(x, w1, b1));
  h = torch::relu(F::linear(h, w2, b2));
  return F::linear(h, w3, b3);
}
