// Reference for level2/10 (ConvTranspose2d + MaxPool + Hardtanh + mean + tanh):
// conv_transpose2d(x, w, b, stride 1, padding 1), MaxPool2d(kernel 2, stride 2),
// hardtanh(-1, 1), mean over dims (2, 3) with keepdim, tanh -> [B, CO, 1, 1].
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {1, 1};
constexpr int64_t kOutputPadding[2] = {0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[2] = {1, 1};
constexpr int64_t kPool[2] = {2, 2};
constexpr int64_t kPoolPadding[2] = {0, 0};
constexpr double kHardtanhMin = -1.0;
constexpr double kHardtanhMax = 1.0;
constexpr int64_t kMeanDims[2] = {2, 3};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv_transpose2d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = torch::max_pool2d(y, kPool, kPool, kPoolPadding);
  y = torch::hardtanh(y, kHardtanhMin, kHardtanhMax);
  y = torch::mean(y, kMeanDims, /*keepdim=*/true);
  return torch::tanh(y);
}
