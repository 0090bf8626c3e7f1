// Reference for level2/44 (ConvTranspose2d + multiply + global average pool + mean):
// mean_{2,3}(mean_{2,3}(conv_transpose2d(x) * 0.5)), with the transposed conv at kernel 3,
// stride 2, padding 1, output_padding 1 (extent 2 * in). The second mean is an identity.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {2, 2};
constexpr int64_t kPadding[2] = {1, 1};
constexpr int64_t kOutputPadding[2] = {1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[2] = {1, 1};
constexpr int64_t kSpatialDims[2] = {2, 3};
constexpr double kMultiplier = 0.5;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv_transpose2d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = y * kMultiplier;
  y = torch::mean(y, kSpatialDims, /*keepdim=*/true);  // [B, CO, 1, 1]
  return torch::mean(y, kSpatialDims, /*keepdim=*/true);  // size-1 dims: no change
}
