// Reference for level1/65 (ConvTranspose2d, square input, asymmetric kernel):
// ConvTranspose2d(64 -> 64, kernel (3, 7), stride 1, padding 0, output_padding 0, dilation 1,
// groups 1, no bias). Output extents: H+2, W+6.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr int64_t kOutputPadding[2] = {0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[2] = {1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv_transpose2d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding,
                                 kOutputPadding, kGroups, kDilation);
}
