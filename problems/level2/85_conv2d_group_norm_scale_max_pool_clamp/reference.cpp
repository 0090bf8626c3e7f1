// Reference for level2/85 (Conv2d + GroupNorm + scale + MaxPool2d + clamp):
// clamp(max_pool2d(group_norm(conv2d(x), 16 groups) * scale, 4), 0, 1), with a 3x3 kernel
// (stride 1, no padding), scale of shape [CO, 1, 1], and a 4x4 pool with stride 4.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr int64_t kGroups = 16;
constexpr double kEps = 1e-5;  // nn.GroupNorm default
constexpr int64_t kPool[2] = {4, 4};
constexpr int64_t kPoolPadding[2] = {0, 0};
constexpr int64_t kPoolDilation[2] = {1, 1};
constexpr double kClampMin = 0.0;
constexpr double kClampMax = 1.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor gn_weight, torch::Tensor gn_bias, torch::Tensor scale) {
  torch::Tensor z = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding);
  z = torch::group_norm(z, kGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true) * scale;
  z = torch::max_pool2d(z, kPool, kPool, kPoolPadding, kPoolDilation, /*ceil_mode=*/false);
  return torch::clamp(z, kClampMin, kClampMax);
}
