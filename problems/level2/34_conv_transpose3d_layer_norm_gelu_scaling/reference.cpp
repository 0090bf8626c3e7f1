// Reference for level2/34 (ConvTranspose3d + LayerNorm + GELU + scaling):
// gelu(layer_norm(conv_transpose3d(x), [64]) ) * 1.0, where the LayerNorm acts on the LAST dim
// (output width 2W = 64), as KernelBench's nn.LayerNorm(out_channels) does.
// ConvTranspose3d: kernel 4, stride 2, padding 1; output extent per dim 2 * in.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr double kEps = 1e-5;  // nn.LayerNorm eps passed by KernelBench
constexpr double kScalingFactor = 1.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor ln_weight, torch::Tensor ln_bias) {
  torch::Tensor y = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  // normalized_shape = [64]: the last dim of y (its width), not the channels.
  y = torch::layer_norm(y, ln_weight.sizes(), ln_weight, ln_bias, kEps);
  return torch::gelu(y) * kScalingFactor;  // exact (erf) GELU
}
