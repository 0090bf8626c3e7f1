// Reference for level1/63 (standard 2-D convolution, square input, square kernel):
// Conv2d(16 -> 128, kernel 3, stride 1, padding 0, no bias).
#include <torch/torch.h>

constexpr int64_t kStride = 1;
constexpr int64_t kPadding = 0;
constexpr int64_t kDilation = 1;
constexpr int64_t kGroups = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv2d(x, weight, /*bias=*/torch::Tensor(), {kStride, kStride},
                       {kPadding, kPadding}, {kDilation, kDilation}, kGroups);
}
