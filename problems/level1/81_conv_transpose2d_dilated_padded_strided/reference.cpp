// Reference for level1/81 (ConvTranspose2d, asymmetric input, square kernel, dilated, padded,
// strided): ConvTranspose2d(32 -> 64, kernel 3, stride 5, padding 1, output_padding 0,
// dilation 2, groups 1, no bias). Output extent per dim: 5*in - 2.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {5, 5};
constexpr int64_t kPadding[2] = {1, 1};
constexpr int64_t kOutputPadding[2] = {0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[2] = {2, 2};

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv_transpose2d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding,
                                 kOutputPadding, kGroups, kDilation);
}
