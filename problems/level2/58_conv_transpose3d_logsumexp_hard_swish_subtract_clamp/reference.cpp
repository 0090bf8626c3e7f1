// Reference for level2/58 (ConvTranspose3d + LogSumExp + "HardSwish" + subtract + clamp):
// l = logsumexp(conv_transpose3d(x), dim 1, keepdim); clamp(l * sigmoid(l + 3) / 6 - bias, -1, 1),
// transposed conv with kernel 3, stride 2, padding 1, output_padding 0.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr int64_t kDim = 1;
constexpr double kClampMin = -1.0;
constexpr double kClampMax = 1.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bias) {
  torch::Tensor y = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = torch::logsumexp(y, {kDim}, /*keepdim=*/true);
  y = y * torch::sigmoid(y + 3.0) / 6.0;  // KernelBench's "HardSwish", not F.hardswish
  y = y - bias;
  return torch::clamp(y, kClampMin, kClampMax);
}
