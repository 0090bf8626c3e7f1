// Reference for level1/82 (Depthwise Conv2d, square input, square kernel):
// Conv2d(64 -> 64, kernel 3, stride 1, padding 0, dilation 1, groups 64 (= channels), no bias).
// Output extents: H - 2, W - 2.
#include <torch/torch.h>

constexpr int64_t kStride = 1;
constexpr int64_t kPadding = 0;
constexpr int64_t kDilation = 1;
constexpr int64_t kGroups = 64;  // depthwise: one group per (input) channel

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv2d(x, weight, /*bias=*/torch::Tensor(), {kStride, kStride},
                       {kPadding, kPadding}, {kDilation, kDilation}, kGroups);
}
