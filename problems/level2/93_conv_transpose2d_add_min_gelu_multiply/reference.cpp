// Reference for level2/93 (ConvTranspose2d + add + min + GELU + multiply):
// gelu(minimum(conv_transpose2d(x) + 0.5, 0.0)) * 2.0, with a 4x4 kernel, stride 2,
// padding 0; exact (erf) GELU.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {2, 2};
constexpr int64_t kPadding[2] = {0, 0};
constexpr int64_t kOutputPadding[2] = {0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[2] = {1, 1};
constexpr double kAddValue = 0.5;
constexpr double kMultiplyValue = 2.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv_transpose2d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = y + kAddValue;
  // KernelBench: torch.min(x, torch.tensor(0.0)), a 0-dim tensor broadcast elementwise.
  y = torch::minimum(y, torch::zeros({}, y.options()));
  y = torch::gelu(y);
  return y * kMultiplyValue;
}
