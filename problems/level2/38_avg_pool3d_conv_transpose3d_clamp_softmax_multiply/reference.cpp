// Reference for level2/38 (AvgPool3d + ConvTranspose3d + clamp + spatial softmax + multiply):
// softmax over D*H*W of clamp(conv_transpose3d(avg_pool3d(x, 2)), 0, 1), times a per-channel
// scale. ConvTranspose3d: kernel 3, stride 2, padding 1, output_padding 1 (extent 2 * in).
#include <torch/torch.h>

constexpr int64_t kPoolKernel[3] = {2, 2, 2};
constexpr int64_t kPoolStride[3] = {2, 2, 2};  // nn.AvgPool3d: stride defaults to the kernel
constexpr int64_t kPoolPadding[3] = {0, 0, 0};
constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {1, 1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr double kClampMin = 0.0;
constexpr double kClampMax = 1.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor scale) {
  torch::Tensor y = torch::avg_pool3d(x, kPoolKernel, kPoolStride, kPoolPadding);
  y = torch::conv_transpose3d(y, conv_weight, conv_bias, kStride, kPadding, kOutputPadding,
                              kGroups, kDilation);
  y = torch::clamp(y, kClampMin, kClampMax);
  // Softmax over the flattened spatial positions of each (sample, channel).
  const auto sizes = y.sizes().vec();
  y = torch::softmax(y.reshape({sizes[0], sizes[1], -1}), /*dim=*/2).reshape(sizes);
  return y * scale;
}
