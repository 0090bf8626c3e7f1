// Reference for level1/58 (ConvTranspose3d, asymmetric input, asymmetric kernel):
// ConvTranspose3d(32 -> 16, kernel (3, 5, 7), stride 1, padding 0, output_padding 0,
// dilation 1, groups 1, no bias). Output extents: D+2, H+4, W+6.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv_transpose3d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding,
                                 kOutputPadding, kGroups, kDilation);
}
