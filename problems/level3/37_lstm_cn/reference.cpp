// Reference for level3/37 (LSTM, final cell state): 6-layer nn.LSTM(128 -> 256, batch_first)
// over x from the initial states (h0, c0); returns c_n [6, B, H]. KernelBench's fc on the last
// step is dead code: its parameters fc_w and fc_b are taken and not used.
#include <torch/torch.h>

#include <tuple>
#include <vector>

constexpr int64_t kNumLayers = 6;  // sets the number of weight inputs
constexpr double kDropout = 0.0;   // between layers: the identity

torch::Tensor forward(torch::Tensor x, torch::Tensor h0, torch::Tensor c0, torch::Tensor w_ih_l0,
                      torch::Tensor w_hh_l0, torch::Tensor b_ih_l0, torch::Tensor b_hh_l0,
                      torch::Tensor w_ih_l1, torch::Tensor w_hh_l1, torch::Tensor b_ih_l1,
                      torch::Tensor b_hh_l1, torch::Tensor w_ih_l2, torch::Tensor w_hh_l2,
                      torch::Tensor b_ih_l2, torch::Tensor b_hh_l2, torch::Tensor w_ih_l3,
                      torch::Tensor w_hh_l3, torch::Tensor b_ih_l3, torch::Tensor b_hh_l3,
                      torch::Tensor w_ih_l4, torch::Tensor w_hh_l4, torch::Tensor b_ih_l4,
                      torch::Tensor b_hh_l4, torch::Tensor w_ih_l5, torch::Tensor w_hh_l5,
                      torch::Tensor b_ih_l5, torch::Tensor b_hh_l5, torch::Tensor fc_w,
                      torch::Tensor fc_b) {
  // The flat parameter list in nn.LSTM's order: per layer w_ih, w_hh, b_ih, b_hh.
  // clang-format off
  std::vector<torch::Tensor> params = {
      w_ih_l0, w_hh_l0, b_ih_l0, b_hh_l0,
      w_ih_l1, w_hh_l1, b_ih_l1, b_hh_l1,
      w_ih_l2, w_hh_l2, b_ih_l2, b_hh_l2,
      w_ih_l3, w_hh_l3, b_ih_l3, b_hh_l3,
      w_ih_l4, w_hh_l4, b_ih_l4, b_hh_l4,
      w_ih_l5, w_hh_l5, b_ih_l5, b_hh_l5};
  // clang-format on
  // nn.LSTM in training mode, as KernelBench runs it (no dropout, so it changes nothing).
  auto [y, h_n, c_n] = torch::lstm(x, {h0, c0}, params, /*has_biases=*/true, kNumLayers, kDropout,
                                   /*train=*/true, /*bidirectional=*/false, /*batch_first=*/true);
  return c_n;
}
