// Reference for level1/79 (ConvTranspose1d, padded, strided, dilated):
// ConvTranspose1d(32 -> 64, kernel 3, stride 2, padding 1, output_padding 0, dilation 2,
// groups 1, no bias). Output length: 2L + 1.
#include <torch/torch.h>

constexpr int64_t kStride = 2;
constexpr int64_t kPadding = 1;
constexpr int64_t kOutputPadding = 0;
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation = 2;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv_transpose1d(x, weight, /*bias=*/torch::Tensor(), {kStride}, {kPadding},
                                 {kOutputPadding}, kGroups, {kDilation});
}
