// Reference for level2/61 (ConvTranspose3d + ReLU + GroupNorm):
// group_norm(relu(conv_transpose3d(x, no bias)), 8 groups, eps 1e-5), with a 3x3x3 kernel,
// stride 1, padding 0. Output extent per dim: in + 2.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kConvGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr int64_t kNormGroups = 8;
constexpr double kEps = 1e-5;  // nn.GroupNorm default

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor gn_weight,
                      torch::Tensor gn_bias) {
  torch::Tensor z = torch::conv_transpose3d(x, conv_weight, /*bias=*/torch::Tensor(), kStride,
                                            kPadding, kOutputPadding, kConvGroups, kDilation);
  z = torch::relu(z);
  return torch::group_norm(z, kNormGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true);
}
