// Reference for level1/83 (Depthwise Conv2d, square input, asymmetric (3x1) kernel):
// Conv2d(8 -> 8, kernel (3, 1), stride 1, padding 0, dilation 1, groups 8 (= channels),
// no bias). Output extents: H - 2, W.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr int64_t kDilation[2] = {1, 1};
constexpr int64_t kGroups = 8;  // depthwise: one group per (input) channel

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv2d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding, kDilation,
                       kGroups);
}
