// Reference for level2/16 (ConvTranspose2d + Mish + add + Hardtanh + scaling):
// hardtanh(mish(conv_transpose2d(x, w, b, stride 2, padding 1, output_padding 1)) + 0.5, -1, 1) * 2.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {2, 2};
constexpr int64_t kPadding[2] = {1, 1};
constexpr int64_t kOutputPadding[2] = {1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[2] = {1, 1};
constexpr double kAddValue = 0.5;
constexpr double kMinVal = -1.0;
constexpr double kMaxVal = 1.0;
constexpr double kScale = 2.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv_transpose2d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = torch::mish(y);
  y = y + kAddValue;
  y = torch::hardtanh(y, kMinVal, kMaxVal);
  return y * kScale;
}
