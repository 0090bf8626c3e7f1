// Reference for level3/42 (GRUBidirectionalHidden): 6-layer bidirectional nn.GRU(128 -> 256,
// seq-first) over x from the initial state h0; returns h_n [12, B, H].
#include <torch/torch.h>

#include <tuple>
#include <vector>

constexpr int64_t kNumLayers = 6;  // sets the number of weight inputs
constexpr double kDropout = 0.0;   // between layers: the identity

torch::Tensor forward(
    torch::Tensor x, torch::Tensor h0, torch::Tensor w_ih_l0, torch::Tensor w_hh_l0,
    torch::Tensor b_ih_l0, torch::Tensor b_hh_l0, torch::Tensor w_ih_l0_reverse,
    torch::Tensor w_hh_l0_reverse, torch::Tensor b_ih_l0_reverse, torch::Tensor b_hh_l0_reverse,
    torch::Tensor w_ih_l1, torch::Tensor w_hh_l1, torch::Tensor b_ih_l1, torch::Tensor b_hh_l1,
    torch::Tensor w_ih_l1_reverse, torch::Tensor w_hh_l1_reverse, torch::Tensor b_ih_l1_reverse,
    torch::Tensor b_hh_l1_reverse, torch::Tensor w_ih_l2, torch::Tensor w_hh_l2,
    torch::Tensor b_ih_l2, torch::Tensor b_hh_l2, torch::Tensor w_ih_l2_reverse,
    torch::Tensor w_hh_l2_reverse, torch::Tensor b_ih_l2_reverse, torch::Tensor b_hh_l2_reverse,
    torch::Tensor w_ih_l3, torch::Tensor w_hh_l3, torch::Tensor b_ih_l3, torch::Tensor b_hh_l3,
    torch::Tensor w_ih_l3_reverse, torch::Tensor w_hh_l3_reverse, torch::Tensor b_ih_l3_reverse,
    torch::Tensor b_hh_l3_reverse, torch::Tensor w_ih_l4, torch::Tensor w_hh_l4,
    torch::Tensor b_ih_l4, torch::Tensor b_hh_l4, torch::Tensor w_ih_l4_reverse,
    torch::Tensor w_hh_l4_reverse, torch::Tensor b_ih_l4_reverse, torch::Tensor b_hh_l4_reverse,
    torch::Tensor w_ih_l5, torch::Tensor w_hh_l5, torch::Tensor b_ih_l5, torch::Tensor b_hh_l5,
    torch::Tensor w_ih_l5_reverse, torch::Tensor w_hh_l5_reverse, torch::Tensor b_ih_l5_reverse,
    torch::Tensor b_hh_l5_reverse) {
  // The flat parameter list in nn.GRU's order: per layer the forward direction's w_ih, w_hh,
  // b_ih, b_hh, then the reverse direction's.
  // clang-format off
  std::vector<torch::Tensor> params = {
      w_ih_l0, w_hh_l0, b_ih_l0, b_hh_l0,
      w_ih_l0_reverse, w_hh_l0_reverse, b_ih_l0_reverse, b_hh_l0_reverse,
      w_ih_l1, w_hh_l1, b_ih_l1, b_hh_l1,
      w_ih_l1_reverse, w_hh_l1_reverse, b_ih_l1_reverse, b_hh_l1_reverse,
      w_ih_l2, w_hh_l2, b_ih_l2, b_hh_l2,
      w_ih_l2_reverse, w_hh_l2_reverse, b_ih_l2_reverse, b_hh_l2_reverse,
      w_ih_l3, w_hh_l3, b_ih_l3, b_hh_l3,
      w_ih_l3_reverse, w_hh_l3_reverse, b_ih_l3_reverse, b_hh_l3_reverse,
      w_ih_l4, w_hh_l4, b_ih_l4, b_hh_l4,
      w_ih_l4_reverse, w_hh_l4_reverse, b_ih_l4_reverse, b_hh_l4_reverse,
      w_ih_l5, w_hh_l5, b_ih_l5, b_hh_l5,
      w_ih_l5_reverse, w_hh_l5_reverse, b_ih_l5_reverse, b_hh_l5_reverse};
  // clang-format on
  // nn.GRU in training mode, as KernelBench runs it (no dropout, so it changes nothing).
  auto [y, h_n] = torch::gru(x, h0, params, /*has_biases=*/true, kNumLayers, kDropout,
                             /*train=*/true, /*bidirectional=*/true, /*batch_first=*/false);
  return h_n;
}
