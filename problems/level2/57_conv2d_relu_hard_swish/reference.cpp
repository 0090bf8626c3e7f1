// Reference for level2/57 (Conv2d + ReLU + HardSwish):
// r = relu(conv2d(x)); r * clamp((r + 3) / 6, 0, 1), 3x3 conv, stride 1, no padding.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor r = torch::relu(torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding));
  return r * torch::clamp((r + 3.0) / 6.0, 0.0, 1.0);
}
