// Reference for level1/54 (Conv3d, square input, square kernel):
// Conv3d(3 -> 64, kernel 3, stride 1, padding 0, dilation 1, groups 1, no bias).
// Output extents: D - 2, H - 2, W - 2.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr int64_t kGroups = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv3d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding, kDilation,
                       kGroups);
}
