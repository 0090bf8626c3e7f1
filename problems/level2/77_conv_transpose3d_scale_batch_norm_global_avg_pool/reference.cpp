// Reference for level2/77 (ConvTranspose3d + scale + BatchNorm (training) + global average pool):
// adaptive_avg_pool3d(batch_norm(2.0 * conv_transpose3d(x), training), 1), with a 5x5x5 kernel,
// stride 1, padding 0; BatchNorm3d uses batch statistics (biased variance, eps 1e-5).
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr double kScaleFactor = 2.0;
constexpr double kEps = 1e-5;      // nn.BatchNorm3d default
constexpr double kMomentum = 0.1;  // only moves running stats, which are not kept here
constexpr int64_t kPoolOut[3] = {1, 1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bn_weight, torch::Tensor bn_bias) {
  torch::Tensor z = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  z = z * kScaleFactor;
  z = torch::batch_norm(z, bn_weight, bn_bias, /*running_mean=*/{}, /*running_var=*/{},
                        /*training=*/true, kMomentum, kEps, /*cudnn_enabled=*/true);
  return torch::adaptive_avg_pool3d(z, kPoolOut);
}
