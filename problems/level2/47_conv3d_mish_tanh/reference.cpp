// Reference for level2/47 (Conv3d + Mish + Tanh):
// tanh(mish(conv3d(x, conv_weight, conv_bias))), 3x3x3 kernel, stride 1, no padding.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv3d(x, conv_weight, conv_bias, kStride, kPadding);
  return torch::tanh(torch::mish(y));
}
