// Reference for level2/15 (ConvTranspose3d + BatchNorm + subtract spatial mean):
// conv_transpose3d(x, w, b, stride 2, padding 1), BatchNorm3d in training mode (batch
// statistics), then y - mean(y, dims (2, 3, 4), keepdim).
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr double kBnEps = 1e-5;      // nn.BatchNorm3d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here
constexpr int64_t kMeanDims[3] = {2, 3, 4};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bn_weight, torch::Tensor bn_bias) {
  torch::Tensor y = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  // Training mode: normalise with the batch statistics; no running buffers.
  y = torch::batch_norm(y, bn_weight, bn_bias, /*running_mean=*/{}, /*running_var=*/{},
                        /*training=*/true, kBnMomentum, kBnEps, /*cudnn_enabled=*/true);
  return y - torch::mean(y, kMeanDims, /*keepdim=*/true);
}
