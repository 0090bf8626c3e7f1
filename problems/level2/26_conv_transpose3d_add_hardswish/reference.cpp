// Reference for level2/26 (ConvTranspose3d + add + HardSwish):
// y = conv_transpose3d(x, w, b, stride 2, padding 1, output_padding 1) + add_input;
// out = y * hardswish(y). KernelBench's extra bias parameter is never used.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {1, 1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor add_input, torch::Tensor conv_weight,
                      torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = y + add_input;
  return y * torch::hardswish(y);
}
