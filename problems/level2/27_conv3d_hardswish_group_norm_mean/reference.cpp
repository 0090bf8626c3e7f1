// Reference for level2/27 (Conv3d + HardSwish + GroupNorm + mean):
// mean(group_norm(hardswish(conv3d(x, w, b)), 4 groups, eps 1e-5), dims [2, 3, 4]), with a
// 4x4x4 kernel, stride 1, no padding.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr int64_t kNormGroups = 4;
constexpr double kEps = 1e-5;  // nn.GroupNorm default

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor gn_weight, torch::Tensor gn_bias) {
  torch::Tensor y = torch::conv3d(x, conv_weight, conv_bias, kStride, kPadding);
  y = torch::hardswish(y);
  y = torch::group_norm(y, kNormGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true);
  return torch::mean(y, {2, 3, 4});  // [B, CO]
}
