// Reference for level1/50 (Conv2d, AlexNet conv1 (11x11, stride 4, padding 2, bias)):
// Conv2d(3 -> 96, kernel 11, stride 4, padding 2, dilation 1, groups 1, with bias).
// Output extents: (H + 2*2 - 11)/4 + 1 and (W + 2*2 - 11)/4 + 1.
#include <torch/torch.h>

constexpr int64_t kStride = 4;
constexpr int64_t kPadding = 2;
constexpr int64_t kDilation = 1;
constexpr int64_t kGroups = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  return torch::conv2d(x, weight, bias, {kStride, kStride}, {kPadding, kPadding},
                       {kDilation, kDilation}, kGroups);
}
