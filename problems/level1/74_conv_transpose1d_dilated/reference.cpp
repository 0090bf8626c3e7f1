// Reference for level1/74 (ConvTranspose1d, dilated):
// ConvTranspose1d(32 -> 64, kernel 5, stride 1, padding 0, output_padding 0, dilation 3,
// groups 1, no bias). Output length: (L - 1) + 3*4 + 1 = L + 12.
#include <torch/torch.h>

constexpr int64_t kStride = 1;
constexpr int64_t kPadding = 0;
constexpr int64_t kOutputPadding = 0;
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation = 3;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv_transpose1d(x, weight, /*bias=*/torch::Tensor(), {kStride}, {kPadding},
                                 {kOutputPadding}, kGroups, {kDilation});
}
