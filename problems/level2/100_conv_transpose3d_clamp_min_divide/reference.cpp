// Reference for level2/100 (ConvTranspose3d + clamp (min) + divide):
// clamp_min(conv_transpose3d(x, conv_weight, conv_bias), -1.0) / 2.0, with a 3x3x3 kernel,
// stride 2, padding 1, output_padding 0.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr double kMinValue = -1.0;
constexpr double kDivisor = 2.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = torch::clamp_min(y, kMinValue);
  return y / kDivisor;
}
