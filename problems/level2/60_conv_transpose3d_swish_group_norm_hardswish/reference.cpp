// Reference for level2/60 (ConvTranspose3d + Swish + GroupNorm + HardSwish):
// hardswish(group_norm(swish(conv_transpose3d(x)), 4 groups, eps 1e-5)), with a 3x3x3 kernel,
// stride 2, padding 1, output_padding 0.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kConvGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr int64_t kNormGroups = 4;
constexpr double kEps = 1e-5;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor gn_weight, torch::Tensor gn_bias) {
  torch::Tensor z = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kConvGroups, kDilation);
  z = torch::sigmoid(z) * z;
  z = torch::group_norm(z, kNormGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true);
  return torch::hardswish(z);
}
