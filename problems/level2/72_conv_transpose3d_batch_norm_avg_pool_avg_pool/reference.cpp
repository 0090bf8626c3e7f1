// Reference for level2/72 (ConvTranspose3d + BatchNorm3d + AvgPool3d + AvgPool3d):
// avg_pool3d(avg_pool3d(batch_norm(conv_transpose3d(x), training), 2), 2), with a 3x3x3
// kernel, stride 2, padding 1, output_padding 0; batch norm uses the batch statistics.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr double kEps = 1e-5;      // nn.BatchNorm3d default
constexpr double kMomentum = 0.1;  // only moves running stats, which are not kept here
constexpr int64_t kPoolKernel[3] = {2, 2, 2};
constexpr int64_t kPoolStride[3] = {2, 2, 2};
constexpr int64_t kPoolPadding[3] = {0, 0, 0};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bn_weight, torch::Tensor bn_bias) {
  torch::Tensor z = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  z = torch::batch_norm(z, bn_weight, bn_bias, /*running_mean=*/{}, /*running_var=*/{},
                        /*training=*/true, kMomentum, kEps, /*cudnn_enabled=*/true);
  z = torch::avg_pool3d(z, kPoolKernel, kPoolStride, kPoolPadding, /*ceil_mode=*/false,
                        /*count_include_pad=*/true);
  return torch::avg_pool3d(z, kPoolKernel, kPoolStride, kPoolPadding, /*ceil_mode=*/false,
                           /*count_include_pad=*/true);
}
