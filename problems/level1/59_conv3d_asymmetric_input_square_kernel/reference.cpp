// Reference for level1/59 (Conv3d, asymmetric input, square kernel (3x3x1)):
// Conv3d(3 -> 64, kernel (3, 3, 1), stride 1, padding 0, dilation 1, groups 1, no bias).
// Output extents: H - 2, W - 2, D.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr int64_t kGroups = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv3d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding, kDilation,
                       kGroups);
}
