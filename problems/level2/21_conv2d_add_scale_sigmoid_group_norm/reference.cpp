// Reference for level2/21 (Conv2d + add + scale + Sigmoid + GroupNorm):
// group_norm(sigmoid((conv2d(x, w, b) + bias) * scale), 8 groups, eps 1e-5), with a 3x3 kernel,
// stride 1, no padding, and bias and scale of shape [CO, 1, 1].
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr int64_t kNormGroups = 8;
constexpr double kEps = 1e-5;  // nn.GroupNorm default

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bias, torch::Tensor scale, torch::Tensor gn_weight,
                      torch::Tensor gn_bias) {
  torch::Tensor y = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding);
  y = y + bias;
  y = y * scale;
  y = torch::sigmoid(y);
  return torch::group_norm(y, kNormGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true);
}
