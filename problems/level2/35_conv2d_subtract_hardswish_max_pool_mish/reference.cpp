// Reference for level2/35 (Conv2d + subtract + HardSwish + MaxPool2d + Mish):
// mish(max_pool2d(hardswish(conv2d(x, conv_weight, conv_bias) - 0.5), kernel 2, stride 2)).
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr double kSubtractValue = 0.5;
constexpr int64_t kPoolKernel[2] = {2, 2};
constexpr int64_t kPoolStride[2] = {2, 2};  // nn.MaxPool2d: stride defaults to the kernel size
constexpr int64_t kPoolPadding[2] = {0, 0};
constexpr int64_t kPoolDilation[2] = {1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding) - kSubtractValue;
  y = torch::hardswish(y);
  y = torch::max_pool2d(y, kPoolKernel, kPoolStride, kPoolPadding, kPoolDilation,
                        /*ceil_mode=*/false);
  return torch::mish(y);
}
