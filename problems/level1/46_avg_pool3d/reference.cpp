// Reference for level1/46 (AvgPool3d): kernel 3, stride 2, padding 1 in each of the three
// pooled dims, count_include_pad (divisor always 27).
#include <torch/torch.h>

constexpr int64_t kKernel = 3;
constexpr int64_t kStride = 2;
constexpr int64_t kPadding = 1;

torch::Tensor forward(torch::Tensor x) {
  return torch::avg_pool3d(x, {kKernel, kKernel, kKernel}, {kStride, kStride, kStride},
                           {kPadding, kPadding, kPadding}, /*ceil_mode=*/false,
                           /*count_include_pad=*/true);  // no divisor_override
}
