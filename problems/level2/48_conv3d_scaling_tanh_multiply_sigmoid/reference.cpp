// Reference for level2/48 (Conv3d + scaling + Tanh + multiply + Sigmoid):
// sigmoid(tanh(conv3d(x) * scaling_factor) * bias), 3x3x3 kernel, stride 1, no padding;
// scaling_factor and bias are [CO, 1, 1, 1] parameters broadcast per channel.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor scaling_factor, torch::Tensor bias) {
  torch::Tensor y = torch::conv3d(x, conv_weight, conv_bias, kStride, kPadding);
  y = torch::tanh(y * scaling_factor) * bias;
  return torch::sigmoid(y);
}
