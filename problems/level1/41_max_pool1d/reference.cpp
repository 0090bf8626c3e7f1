// Reference for level1/41 (MaxPool1d): kernel 8, stride 1, padding 4, dilation 3, values only.
#include <torch/torch.h>

constexpr int64_t kKernel = 8;
constexpr int64_t kStride = 1;
constexpr int64_t kPadding = 4;
constexpr int64_t kDilation = 3;

torch::Tensor forward(torch::Tensor x) {
  return torch::max_pool1d(x, {kKernel}, {kStride}, {kPadding}, {kDilation},
                           /*ceil_mode=*/false);
}
