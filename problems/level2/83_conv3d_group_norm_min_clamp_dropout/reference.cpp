// Reference for level2/83 (Conv3d + GroupNorm + min + clamp + dropout):
// group_norm(conv3d(x, w, b), 8 groups, eps 1e-5), then minimum with 0, clamp to [0, 1], and
// dropout with p = 0.2 and the mask given as an input, scaled as PyTorch scales it.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr int64_t kNormGroups = 8;
constexpr double kEps = 1e-5;  // nn.GroupNorm default
constexpr double kMinValue = 0.0, kMaxValue = 1.0;
constexpr double kDropoutP = 0.2;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias, torch::Tensor gn_weight,
                      torch::Tensor gn_bias, torch::Tensor keep) {
  torch::Tensor y = torch::conv3d(x, conv_weight, conv_bias, kStride, kPadding);
  y = torch::group_norm(y, kNormGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true);
  y = torch::minimum(y, torch::zeros({}, y.options()).fill_(kMinValue));
  y = torch::clamp(y, kMinValue, kMaxValue);
  return y * (keep * (1.0 / (1.0 - kDropoutP)));  // PyTorch scales the mask, then multiplies
}
