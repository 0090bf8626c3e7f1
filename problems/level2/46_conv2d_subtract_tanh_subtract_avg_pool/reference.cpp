// Reference for level2/46 (Conv2d + subtract + Tanh + subtract + AvgPool):
// avg_pool2d(tanh(conv2d(x) - 0.5) - 0.2, kernel 2, stride 2), with a 3x3 conv, stride 1,
// no padding.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr double kSubtract1 = 0.5;
constexpr double kSubtract2 = 0.2;
constexpr int64_t kPool[2] = {2, 2};       // AvgPool2d kernel; stride defaults to the kernel
constexpr int64_t kPoolPadding[2] = {0, 0};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding);
  y = torch::tanh(y - kSubtract1) - kSubtract2;
  return torch::avg_pool2d(y, kPool, kPool, kPoolPadding);
}
