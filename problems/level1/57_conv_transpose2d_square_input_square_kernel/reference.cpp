// Reference for level1/57 (ConvTranspose2d, square input, square kernel):
// ConvTranspose2d(64 -> 64, kernel 3, stride 1, padding 0, output_padding 0, dilation 1,
// groups 1, no bias). Output extent per dim: (in - 1)*s - 2*p + d*(k - 1) + op + 1 = in + 2.
#include <torch/torch.h>

constexpr int64_t kStride = 1;
constexpr int64_t kPadding = 0;
constexpr int64_t kOutputPadding = 0;
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv_transpose2d(x, weight, /*bias=*/torch::Tensor(), {kStride, kStride},
                                 {kPadding, kPadding}, {kOutputPadding, kOutputPadding}, kGroups,
                                 {kDilation, kDilation});
}
