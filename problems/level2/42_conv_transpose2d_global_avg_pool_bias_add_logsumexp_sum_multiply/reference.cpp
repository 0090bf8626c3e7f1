// Reference for level2/42 (ConvTranspose2d + global average pool + bias add + logsumexp + sum +
// multiply): 10 * sum_{2,3}(logsumexp_1(mean_{2,3}(conv_transpose2d(x)) + bias)), with the
// transposed conv at kernel 3, stride 1, padding 0 (extent in + 2). Output [B, 1].
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr int64_t kOutputPadding[2] = {0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[2] = {1, 1};
constexpr int64_t kSpatialDims[2] = {2, 3};
constexpr int64_t kChannelDim[1] = {1};
constexpr double kMultiplier = 10.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bias) {
  torch::Tensor y = torch::conv_transpose2d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = torch::mean(y, kSpatialDims, /*keepdim=*/true) + bias;   // [B, CO, 1, 1]
  y = torch::logsumexp(y, kChannelDim, /*keepdim=*/true);      // [B, 1, 1, 1]
  y = torch::sum(y, kSpatialDims, /*keepdim=*/false);           // [B, 1]
  return y * kMultiplier;
}
