// Reference for level1/75 (ConvTranspose2d, asymmetric input and kernel, strided, grouped,
// padded, dilated): ConvTranspose2d(32 -> 64, kernel (3, 5), stride (2, 3), padding (1, 2),
// output_padding 0, dilation (2, 1), groups 4, no bias). Output extents: 2H+1, 3W-2.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {2, 3};
constexpr int64_t kPadding[2] = {1, 2};
constexpr int64_t kOutputPadding[2] = {0, 0};
constexpr int64_t kGroups = 4;
constexpr int64_t kDilation[2] = {2, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv_transpose2d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding,
                                 kOutputPadding, kGroups, kDilation);
}
