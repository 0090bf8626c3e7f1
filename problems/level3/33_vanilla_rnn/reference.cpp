// Reference for level3/33 (Vanilla RNN, one step): h = tanh(i2h(cat(x, initial_hidden))),
// out = h2o(h); 16384 + 16384 -> 16384 -> 8192 at full size. Stateless: the hidden state
// KernelBench's module keeps is the input initial_hidden, and the new state is not kept.
#include <torch/torch.h>

#include <vector>

torch::Tensor forward(torch::Tensor x, torch::Tensor initial_hidden,
                      const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor i2h_w = next();
  torch::Tensor i2h_b = next();
  torch::Tensor h2o_w = next();
  torch::Tensor h2o_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  torch::Tensor combined = torch::cat({x, initial_hidden}, /*dim=*/1);
  torch::Tensor hidden = torch::tanh(F::linear(combined, i2h_w, i2h_b));
  return F::linear(hidden, h2o_w, h2o_b);
}
