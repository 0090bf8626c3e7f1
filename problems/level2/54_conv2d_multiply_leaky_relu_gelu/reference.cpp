// Reference for level2/54 (Conv2d + multiply + LeakyReLU + GELU):
// gelu(leaky_relu(conv2d(x) * multiplier, 0.01)), 3x3 conv, stride 1, no padding; multiplier
// is a [CO, 1, 1] parameter; exact (erf) GELU.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr double kNegativeSlope = 0.01;  // nn.LeakyReLU default

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor multiplier) {
  torch::Tensor y = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding) * multiplier;
  y = torch::leaky_relu(y, kNegativeSlope);
  return torch::gelu(y);
}
