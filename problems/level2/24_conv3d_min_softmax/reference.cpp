// Reference for level2/24 (Conv3d + min + softmax):
// softmax(min(conv3d(x, w, b), dim 2).values, dim 1), with a 3x3x3 kernel, stride 1, no padding.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr int64_t kMinDim = 2;      // the depth dim of [B, CO, D', H', W']
constexpr int64_t kSoftmaxDim = 1;  // channels

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv3d(x, conv_weight, conv_bias, kStride, kPadding);
  y = std::get<0>(torch::min(y, kMinDim));  // [B, CO, H', W']
  return torch::softmax(y, kSoftmaxDim);
}
