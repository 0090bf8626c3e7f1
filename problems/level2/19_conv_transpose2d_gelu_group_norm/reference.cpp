// Reference for level2/19 (ConvTranspose2d + GELU + GroupNorm):
// group_norm(gelu(conv_transpose2d(x, w, b, stride 1, padding 0)), 8 groups, eps 1e-5), exact GELU.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr int64_t kOutputPadding[2] = {0, 0};
constexpr int64_t kConvGroups = 1;  // the constructor's groups=8 is never passed to the conv
constexpr int64_t kDilation[2] = {1, 1};
constexpr int64_t kNormGroups = 8;
constexpr double kEps = 1e-5;  // nn.GroupNorm default

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor gn_weight, torch::Tensor gn_bias) {
  torch::Tensor y = torch::conv_transpose2d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kConvGroups, kDilation);
  y = torch::gelu(y);
  return torch::group_norm(y, kNormGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true);
}
