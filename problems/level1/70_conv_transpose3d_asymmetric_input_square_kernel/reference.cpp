// Reference for level1/70 (ConvTranspose3d, asymmetric input (a cube in fact), square kernel):
// ConvTranspose3d(48 -> 24, kernel 3, stride 1, padding 0, output_padding 0, dilation 1,
// groups 1, no bias). Output extent per dim: in + 2.
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
