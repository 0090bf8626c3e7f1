// Reference for level1/73 (ConvTranspose3d, asymmetric input, square kernel, strided, padded,
// "grouped" in name only): ConvTranspose3d(32 -> 32, kernel 3, stride 2, padding 1,
// output_padding 0, dilation 1, groups 1, no bias). KernelBench's groups=4 lands in an
// unused output_padding constructor argument, so the effective layer is ungrouped and has
// output_padding 0. Output extent per dim: 2*in - 1.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};  // the value 4 passed upstream is ignored
constexpr int64_t kGroups = 1;                    // "grouped" in name only
constexpr int64_t kDilation[3] = {1, 1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv_transpose3d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding,
                                 kOutputPadding, kGroups, kDilation);
}
