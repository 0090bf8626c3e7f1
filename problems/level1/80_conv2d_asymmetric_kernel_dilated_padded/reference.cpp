// Reference for level1/80 (Conv2d, square input, asymmetric kernel, dilated and padded):
// Conv2d(32 -> 64, kernel (5, 9), stride 1, padding (2, 4), dilation (2, 3), groups 1,
// no bias). Output extents: H + 2*2 - 2*(5-1) = H - 4, W + 2*4 - 3*(9-1) = W - 16.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {2, 4};
constexpr int64_t kDilation[2] = {2, 3};
constexpr int64_t kGroups = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv2d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding, kDilation,
                       kGroups);
}
