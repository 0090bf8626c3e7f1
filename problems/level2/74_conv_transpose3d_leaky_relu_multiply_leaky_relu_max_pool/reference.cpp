// Reference for level2/74 (ConvTranspose3d + LeakyReLU + multiply + LeakyReLU + MaxPool3d):
// max_pool3d(leaky_relu(leaky_relu(conv_transpose3d(x), 0.2) * multiplier, 0.2), 2), with a
// 3x3x3 kernel, stride 2, padding 1, output_padding 1; multiplier is [CO, 1, 1, 1].
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {1, 1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr double kNegativeSlope = 0.2;
constexpr int64_t kPoolKernel[3] = {2, 2, 2};
constexpr int64_t kPoolStride[3] = {2, 2, 2};
constexpr int64_t kPoolPadding[3] = {0, 0, 0};
constexpr int64_t kPoolDilation[3] = {1, 1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor multiplier) {
  torch::Tensor z = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  z = torch::leaky_relu(z, kNegativeSlope);
  z = torch::leaky_relu(z * multiplier, kNegativeSlope);
  return torch::max_pool3d(z, kPoolKernel, kPoolStride, kPoolPadding, kPoolDilation,
                           /*ceil_mode=*/false);
}
