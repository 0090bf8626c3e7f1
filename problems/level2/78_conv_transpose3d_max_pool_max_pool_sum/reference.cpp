// Reference for level2/78 (ConvTranspose3d + MaxPool3d + MaxPool3d + channel sum):
// sum(max_pool3d(max_pool3d(conv_transpose3d(x), 2), 3), dim 1, keepdim), with a 5x5x5 kernel,
// stride 2, padding 2; pools without padding (stride = window).
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {2, 2, 2};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr int64_t kPool1[3] = {2, 2, 2};
constexpr int64_t kPool2[3] = {3, 3, 3};
constexpr int64_t kPoolPadding[3] = {0, 0, 0};
constexpr int64_t kPoolDilation[3] = {1, 1, 1};
constexpr int64_t kSumDim[1] = {1};  // channels

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor z = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  z = torch::max_pool3d(z, kPool1, kPool1, kPoolPadding, kPoolDilation, /*ceil_mode=*/false);
  z = torch::max_pool3d(z, kPool2, kPool2, kPoolPadding, kPoolDilation, /*ceil_mode=*/false);
  return torch::sum(z, kSumDim, /*keepdim=*/true);
}
