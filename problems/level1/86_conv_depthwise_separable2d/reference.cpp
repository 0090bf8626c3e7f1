// Reference for level1/86 (Depthwise-separable Conv2d):
// depthwise Conv2d(64 -> 64, kernel 3, stride 1, padding 1, dilation 1, groups 64, no bias),
// then pointwise Conv2d(64 -> 128, kernel 1, stride 1, padding 0, no bias).
// Output extents: H, W (padding 1 keeps them through the 3x3 depthwise conv).
#include <torch/torch.h>

constexpr int64_t kStride = 1;
constexpr int64_t kPadding = 1;
constexpr int64_t kDilation = 1;
constexpr int64_t kGroups = 64;  // depthwise: one group per (input) channel
// The pointwise conv: 1x1, stride 1, padding 0, dilation 1, groups 1.
constexpr int64_t kPwStride = 1;
constexpr int64_t kPwPadding = 0;
constexpr int64_t kPwDilation = 1;
constexpr int64_t kPwGroups = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor depthwise_weight,
                      torch::Tensor pointwise_weight) {
  torch::Tensor t = torch::conv2d(x, depthwise_weight, /*bias=*/torch::Tensor(),
                                  {kStride, kStride}, {kPadding, kPadding},
                                  {kDilation, kDilation}, kGroups);
  return torch::conv2d(t, pointwise_weight, /*bias=*/torch::Tensor(), {kPwStride, kPwStride},
                       {kPwPadding, kPwPadding}, {kPwDilation, kPwDilation}, kPwGroups);
}
