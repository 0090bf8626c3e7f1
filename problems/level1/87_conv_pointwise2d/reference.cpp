// Reference for level1/87 (Pointwise (1x1) Conv2d):
// Conv2d(64 -> 128, kernel 1, stride 1, padding 0, dilation 1, groups 1, no bias).
// Output extents: H, W.
#include <torch/torch.h>

constexpr int64_t kStride = 1;
constexpr int64_t kPadding = 0;
constexpr int64_t kDilation = 1;
constexpr int64_t kGroups = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv2d(x, weight, /*bias=*/torch::Tensor(), {kStride, kStride},
                       {kPadding, kPadding}, {kDilation, kDilation}, kGroups);
}
