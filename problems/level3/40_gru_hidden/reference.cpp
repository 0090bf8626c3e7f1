// Reference for level3/40 (GRUHidden): 6-layer nn.GRU(128 -> 256, seq-first) over x
// from the initial state h0; returns h_n [6, B, H].
#include <torch/torch.h>

#include <tuple>
#include <vector>

constexpr int64_t kNumLayers = 6;  // sets how many GRU tensors params holds
constexpr int64_t kDirections = 1;
constexpr double kDropout = 0.0;   // between layers: the identity

torch::Tensor forward(torch::Tensor x, torch::Tensor h0, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  // nn.GRU's flat parameter list, in its order: per layer weight_ih, weight_hh, bias_ih, bias_hh.
  std::vector<torch::Tensor> gru_params;
  for (int64_t i = 0; i < kNumLayers * kDirections * 4; ++i) gru_params.push_back(next());
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  // nn.GRU in training mode, as KernelBench runs it (no dropout, so it changes nothing).
  auto [y, h_n] = torch::gru(x, h0, gru_params, /*has_biases=*/true, kNumLayers, kDropout,
                             /*train=*/true, /*bidirectional=*/false, /*batch_first=*/false);
  return h_n;
}
