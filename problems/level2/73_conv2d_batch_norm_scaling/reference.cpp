// Reference for level2/73 (Conv2d + BatchNorm (training) + scaling):
// 2.0 * batch_norm(conv2d(x, conv_weight, conv_bias)), a 3x3 convolution (stride 1, no padding),
// BatchNorm2d in training mode (batch statistics, biased variance, eps 1e-5).
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr double kEps = 1e-5;          // nn.BatchNorm2d default
constexpr double kMomentum = 0.1;      // only moves running stats, which are not kept here
constexpr double kScalingFactor = 2.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bn_weight, torch::Tensor bn_bias) {
  torch::Tensor z = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding);
  z = torch::batch_norm(z, bn_weight, bn_bias, /*running_mean=*/{}, /*running_var=*/{},
                        /*training=*/true, kMomentum, kEps, /*cudnn_enabled=*/true);
  return z * kScalingFactor;
}
