// Reference for level2/50 (ConvTranspose3d + scaling + AvgPool + bias add + scaling):
// (avg_pool3d(conv_transpose3d(x) * scale1, 2) + bias) * scale2, transposed conv with
// kernel 3, stride 2, padding 1, output_padding 0; scale1 and scale2 are 0-dim tensors.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr int64_t kPool[3] = {2, 2, 2};  // AvgPool3d kernel; stride defaults to the kernel
constexpr int64_t kPoolPadding[3] = {0, 0, 0};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor scale1, torch::Tensor bias, torch::Tensor scale2) {
  torch::Tensor y = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = y * scale1;
  y = torch::avg_pool3d(y, kPool, kPool, kPoolPadding);
  return (y + bias) * scale2;
}
