// Reference for level3/38 (bidirectional LSTM): 6-layer bidirectional nn.LSTM(128 -> 256,
// batch_first) over x from the initial states (h0, c0), then nn.Linear(512 -> 10) on the last
// step of the last layer's output (both directions concatenated).
#include <torch/torch.h>

#include <tuple>
#include <vector>

constexpr int64_t kNumLayers = 6;  // sets how many LSTM tensors params holds
constexpr int64_t kDirections = 2;
constexpr double kDropout = 0.0;   // between layers: the identity

torch::Tensor forward(torch::Tensor x, torch::Tensor h0, torch::Tensor c0,
                      const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  // nn.LSTM's flat parameter list, in its order: per layer the forward direction's weight_ih,
  // weight_hh, bias_ih, bias_hh, then the reverse direction's.
  std::vector<torch::Tensor> lstm_params;
  for (int64_t i = 0; i < kNumLayers * kDirections * 4; ++i) lstm_params.push_back(next());
  torch::Tensor fc_w = next();
  torch::Tensor fc_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  // nn.LSTM in training mode, as KernelBench runs it (no dropout, so it changes nothing).
  auto [y, h_n, c_n] = torch::lstm(x, {h0, c0}, lstm_params, /*has_biases=*/true, kNumLayers,
                                   kDropout, /*train=*/true, /*bidirectional=*/true,
                                   /*batch_first=*/true);
  return torch::nn::functional::linear(y.select(/*dim=*/1, /*index=*/-1), fc_w, fc_b);
}
