// Reference for level1/78 (ConvTranspose2d, asymmetric input, asymmetric kernel, padded):
// ConvTranspose2d(32 -> 32, kernel (3, 7), stride 1, padding (1, 3), output_padding 0,
// dilation 1, groups 1, no bias). Output extents: H, W (unchanged).
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {1, 3};
constexpr int64_t kOutputPadding[2] = {0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[2] = {1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv_transpose2d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding,
                                 kOutputPadding, kGroups, kDilation);
}
