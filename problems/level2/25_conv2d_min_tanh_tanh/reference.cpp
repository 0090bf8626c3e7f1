// Reference for level2/25 (Conv2d + min + Tanh + Tanh):
// tanh(tanh(min(conv2d(x, w, b), dim 1, keepdim).values)), with a 3x3 kernel, stride 1,
// no padding.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr int64_t kMinDim = 1;  // channels

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding);
  y = std::get<0>(torch::min(y, kMinDim, /*keepdim=*/true));  // [B, 1, H', W']
  y = torch::tanh(y);
  return torch::tanh(y);
}
