// Reference for level1/42 (MaxPool2d): kernel 4, stride 1, padding 1, dilation 1.
#include <torch/torch.h>

constexpr int64_t kKernel = 4;
constexpr int64_t kStride = 1;
constexpr int64_t kPadding = 1;
constexpr int64_t kDilation = 1;

torch::Tensor forward(torch::Tensor x) {
  return torch::max_pool2d(x, {kKernel, kKernel}, {kStride, kStride}, {kPadding, kPadding},
                           {kDilation, kDilation}, /*ceil_mode=*/false);
}
