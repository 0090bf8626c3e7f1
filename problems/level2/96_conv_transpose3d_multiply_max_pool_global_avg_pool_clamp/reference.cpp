// Reference for level2/96 (ConvTranspose3d + multiply + MaxPool3d + global average pool +
// clamp): clamp(adaptive_avg_pool3d(max_pool3d(conv_transpose3d(x) * 0.5, 2), 1), 0, 1), with a
// 3x3x3 kernel, stride 2, padding 1, output_padding 0.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr double kScale = 0.5;
constexpr int64_t kPoolKernel[3] = {2, 2, 2};
constexpr int64_t kPoolStride[3] = {2, 2, 2};
constexpr int64_t kPoolPadding[3] = {0, 0, 0};
constexpr int64_t kPoolDilation[3] = {1, 1, 1};
constexpr int64_t kGlobalSize[3] = {1, 1, 1};
constexpr double kClampMin = 0.0;
constexpr double kClampMax = 1.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor z = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  z = z * kScale;
  z = torch::max_pool3d(z, kPoolKernel, kPoolStride, kPoolPadding, kPoolDilation,
                        /*ceil_mode=*/false);
  z = torch::adaptive_avg_pool3d(z, kGlobalSize);
  return torch::clamp(z, kClampMin, kClampMax);
}
