// Reference for level1/62 (Conv2d, square input, asymmetric kernel):
// Conv2d(32 -> 64, kernel (5, 9), stride 1, padding 0, dilation 1, groups 1, no bias).
// Output extents: H - 4, W - 8.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr int64_t kDilation[2] = {1, 1};
constexpr int64_t kGroups = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv2d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding, kDilation,
                       kGroups);
}
