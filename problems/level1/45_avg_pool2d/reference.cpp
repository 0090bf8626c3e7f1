// Reference for level1/45 (AvgPool2d): kernel 11, stride 11 (the default, = kernel), no
// padding.
#include <torch/torch.h>

constexpr int64_t kKernel = 11;
constexpr int64_t kStride = kKernel;  // nn.AvgPool2d: stride defaults to kernel_size
constexpr int64_t kPadding = 0;

torch::Tensor forward(torch::Tensor x) {
  return torch::avg_pool2d(x, {kKernel, kKernel}, {kStride, kStride}, {kPadding, kPadding},
                           /*ceil_mode=*/false, /*count_include_pad=*/true);
}
