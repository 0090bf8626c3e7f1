// Reference for level2/3 (ConvTranspose3d + sum + LayerNorm + AvgPool + GELU):
// conv_transpose3d(x, w, b, stride 2, padding 1, output_padding 1) + sum_weight, LayerNorm over
// the last dim (width 2W = 64), AvgPool3d(kernel 2, stride 2), exact GELU.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {1, 1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr double kEps = 1e-5;  // nn.LayerNorm default
constexpr int64_t kPool[3] = {2, 2, 2};
constexpr int64_t kPoolPadding[3] = {0, 0, 0};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor sum_weight, torch::Tensor norm_weight,
                      torch::Tensor norm_bias) {
  torch::Tensor y = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = y + sum_weight;
  // normalized_shape = (64,): the last dim, whose extent is the output width.
  y = torch::layer_norm(y, norm_weight.sizes(), norm_weight, norm_bias, kEps);
  y = torch::avg_pool3d(y, kPool, kPool, kPoolPadding);
  return torch::gelu(y);
}
