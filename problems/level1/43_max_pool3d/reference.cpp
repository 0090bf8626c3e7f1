// Reference for level1/43 (MaxPool3d): kernel 3, stride 2, padding 1, dilation 3 in each of
// the three pooled dims, values only.
#include <torch/torch.h>

constexpr int64_t kKernel = 3;
constexpr int64_t kStride = 2;
constexpr int64_t kPadding = 1;
constexpr int64_t kDilation = 3;

torch::Tensor forward(torch::Tensor x) {
  return torch::max_pool3d(x, {kKernel, kKernel, kKernel}, {kStride, kStride, kStride},
                           {kPadding, kPadding, kPadding}, {kDilation, kDilation, kDilation},
                           /*ceil_mode=*/false);
}
