// Reference for level1/72 (ConvTranspose3d, asymmetric input and kernel, strided, padded,
// grouped): ConvTranspose3d(32 -> 32, kernel (3, 5, 7), stride 2, padding (1, 2, 3),
// output_padding 1, dilation 1, groups 4, no bias). Output extents: 2D, 2H, 2W.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 2, 3};
constexpr int64_t kOutputPadding[3] = {1, 1, 1};
constexpr int64_t kGroups = 4;
constexpr int64_t kDilation[3] = {1, 1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv_transpose3d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding,
                                 kOutputPadding, kGroups, kDilation);
}
