// Reference for level2/87 (Conv2d + subtract + subtract + Mish):
// mish(conv2d(x, conv_weight, conv_bias) - 0.5 - 0.2), with a 3x3 kernel, stride 1, no padding.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr double kSubtract1 = 0.5;
constexpr double kSubtract2 = 0.2;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding);
  y = y - kSubtract1;
  y = y - kSubtract2;
  return torch::mish(y);
}
