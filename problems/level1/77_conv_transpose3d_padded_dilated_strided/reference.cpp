// Reference for level1/77 (ConvTranspose3d, square kernel, padded, dilated, strided):
// ConvTranspose3d(32 -> 64, kernel 3, stride 2, padding 1, output_padding 0, dilation 2,
// groups 1, no bias). Output extent per dim: 2*in + 1.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {2, 2, 2};

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv_transpose3d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding,
                                 kOutputPadding, kGroups, kDilation);
}
