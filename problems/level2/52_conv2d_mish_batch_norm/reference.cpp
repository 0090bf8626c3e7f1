// Reference for level2/52 (Conv2d + activation (Mish) + BatchNorm, training mode):
// batch_norm(conv2d(x) * tanh(softplus(conv2d(x)))) with batch statistics, 3x3 conv, stride 1,
// no padding.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr double kEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kMomentum = 0.1;  // only moves running stats, which are not kept here

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bn_weight, torch::Tensor bn_bias) {
  torch::Tensor c = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding);
  torch::Tensor a = torch::tanh(torch::softplus(c)) * c;
  return torch::batch_norm(a, bn_weight, bn_bias, /*running_mean=*/{}, /*running_var=*/{},
                           /*training=*/true, kMomentum, kEps, /*cudnn_enabled=*/true);
}
