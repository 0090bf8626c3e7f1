// Reference for level2/36 (ConvTranspose2d + channel min + height sum + GELU + bias add):
// gelu(sum_dim2(min_dim1(conv_transpose2d(x)))) + bias, with the transposed conv at kernel 3,
// stride 2, padding 1, output_padding 1 (output extent 2 * in) and bias of shape [1, 1, 1].
#include <torch/torch.h>

constexpr int64_t kStride[2] = {2, 2};
constexpr int64_t kPadding[2] = {1, 1};
constexpr int64_t kOutputPadding[2] = {1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[2] = {1, 1};
constexpr int64_t kSumDims[1] = {2};  // the height

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bias) {
  torch::Tensor y = torch::conv_transpose2d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = std::get<0>(torch::min(y, /*dim=*/1, /*keepdim=*/true));  // [B, 1, 2H, 2W]
  y = torch::sum(y, kSumDims, /*keepdim=*/true);                  // [B, 1, 1, 2W]
  return torch::gelu(y) + bias;                                   // exact (erf) GELU
}
