// Reference for level2/11 (ConvTranspose2d + BatchNorm + tanh + MaxPool + GroupNorm):
// conv_transpose2d(x, w, b, stride 1, padding 1), BatchNorm2d in training mode (batch
// statistics), tanh, MaxPool2d(kernel 2, stride 2), GroupNorm(8 groups).
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {1, 1};
constexpr int64_t kOutputPadding[2] = {0, 0};
constexpr int64_t kGroups = 1;  // the constructor's groups=8 is never passed to the conv
constexpr int64_t kDilation[2] = {1, 1};
constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here
constexpr int64_t kPool[2] = {2, 2};
constexpr int64_t kPoolPadding[2] = {0, 0};
constexpr int64_t kNumGroups = 8;
constexpr double kGnEps = 1e-5;  // nn.GroupNorm default

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bn_weight, torch::Tensor bn_bias, torch::Tensor gn_weight,
                      torch::Tensor gn_bias) {
  torch::Tensor y = torch::conv_transpose2d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  // Training mode: normalise with the batch statistics; no running buffers.
  y = torch::batch_norm(y, bn_weight, bn_bias, /*running_mean=*/{}, /*running_var=*/{},
                        /*training=*/true, kBnMomentum, kBnEps, /*cudnn_enabled=*/true);
  y = torch::tanh(y);
  y = torch::max_pool2d(y, kPool, kPool, kPoolPadding);
  return torch::group_norm(y, kNumGroups, gn_weight, gn_bias, kGnEps);
}
