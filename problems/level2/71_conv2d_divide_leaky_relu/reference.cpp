// Reference for level2/71 (Conv2d + divide + LeakyReLU):
// leaky_relu(conv2d(x, conv_weight, conv_bias) / 2, 0.01), 3x3 kernel, stride 1, no padding.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr double kDivisor = 2.0;
constexpr double kNegativeSlope = 0.01;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor z = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding);
  return torch::leaky_relu(z / kDivisor, kNegativeSlope);
}
