// Reference for level3/36 (LSTM, final hidden state): 6-layer nn.LSTM(128 -> 256, batch_first)
// over x from the initial states (h0, c0); returns h_n [6, B, H]. KernelBench's fc on the last
// step is dead code: its parameters fc.weight and fc.bias are taken and not used.
#include <torch/torch.h>

#include <tuple>
#include <vector>

constexpr int64_t kNumLayers = 6;  // sets how many LSTM tensors params holds
constexpr int64_t kDirections = 1;
constexpr double kDropout = 0.0;   // between layers: the identity

torch::Tensor forward(torch::Tensor x, torch::Tensor h0, torch::Tensor c0,
                      const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  // nn.LSTM's flat parameter list, in its order: per layer weight_ih, weight_hh, bias_ih, bias_hh.
  std::vector<torch::Tensor> lstm_params;
  for (int64_t i = 0; i < kNumLayers * kDirections * 4; ++i) lstm_params.push_back(next());
  next();  // fc.weight: unused, KernelBench discards the fc's result
  next();  // fc.bias: the same
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  // nn.LSTM in training mode, as KernelBench runs it (no dropout, so it changes nothing).
  auto [y, h_n, c_n] = torch::lstm(x, {h0, c0}, lstm_params, /*has_biases=*/true, kNumLayers,
                                   kDropout, /*train=*/true, /*bidirectional=*/false,
                                   /*batch_first=*/true);
  return h_n;
}
