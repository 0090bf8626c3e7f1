// Reference for level2/90 (Conv3d + LeakyReLU + sum + clamp + GELU):
// gelu(clamp(leaky_relu(conv3d(x, conv_weight, conv_bias), 0.2) + sum_tensor, -1, 1)), with a
// 3x3x3 kernel, stride 1, no padding; sum_tensor is [CO, 1, 1, 1]; exact (erf) GELU.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr double kNegativeSlope = 0.2;
constexpr double kClampMin = -1.0;
constexpr double kClampMax = 1.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor sum_tensor) {
  torch::Tensor y = torch::conv3d(x, conv_weight, conv_bias, kStride, kPadding);
  y = torch::leaky_relu(y, kNegativeSlope);
  y = y + sum_tensor;
  y = torch::clamp(y, kClampMin, kClampMax);
  return torch::gelu(y);
}
