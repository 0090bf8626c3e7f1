// Reference for level2/8 (Conv3d + divide + MaxPool + global AvgPool + bias add + sum):
// conv3d(x, w, b) (3x3x3, stride 1, no padding) / 2.0, MaxPool3d(kernel 2, stride 2),
// AdaptiveAvgPool3d(1), + bias [CO, 1, 1, 1], sum over dim 1 -> [B, 1, 1, 1].
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr double kDivisor = 2.0;
constexpr int64_t kPool[3] = {2, 2, 2};
constexpr int64_t kPoolPadding[3] = {0, 0, 0};
constexpr int64_t kGlobal[3] = {1, 1, 1};
constexpr int64_t kSumDims[1] = {1};  // sum_dim, keepdim false

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bias) {
  torch::Tensor y = torch::conv3d(x, conv_weight, conv_bias, kStride, kPadding);
  y = y / kDivisor;
  y = torch::max_pool3d(y, kPool, kPool, kPoolPadding);
  y = torch::adaptive_avg_pool3d(y, kGlobal);
  y = y + bias;
  return torch::sum(y, kSumDims);
}
