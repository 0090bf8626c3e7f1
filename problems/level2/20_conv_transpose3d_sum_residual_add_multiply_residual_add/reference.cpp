// Reference for level2/20 (ConvTranspose3d + sum + residual add + multiply + residual add):
// r = conv_transpose3d(x, w, b, stride 2, padding 1, output_padding 1); y = ((r + bias) + r) * r + r.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {1, 1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bias) {
  torch::Tensor y = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  torch::Tensor original = y;  // KernelBench: x.clone().detach(), the same values
  y = y + bias;
  y = y + original;
  y = y * original;
  y = y + original;
  return y;
}
