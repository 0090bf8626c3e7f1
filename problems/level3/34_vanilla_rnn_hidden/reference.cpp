// Reference for level3/34 (Vanilla RNN over a sequence): for t in 0..T-1,
// h = tanh(i2h(cat(x[t], h))), y[t] = h2o(h); returns stack(y) [T, B, OUT].
#include <torch/torch.h>

#include <vector>

torch::Tensor forward(torch::Tensor x, torch::Tensor h0, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor i2h_w = next();
  torch::Tensor i2h_b = next();
  torch::Tensor h2o_w = next();
  torch::Tensor h2o_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  const int64_t steps = x.size(0);
  torch::Tensor hidden = h0;
  std::vector<torch::Tensor> outputs;
  outputs.reserve(steps);
  for (int64_t t = 0; t < steps; ++t) {
    torch::Tensor combined = torch::cat({x[t], hidden}, /*dim=*/1);
    hidden = torch::tanh(F::linear(combined, i2h_w, i2h_b));
    outputs.push_back(F::linear(hidden, h2o_w, h2o_b));
  }
  return torch::stack(outputs, /*dim=*/0);
}
