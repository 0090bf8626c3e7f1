// Reference for level2/7 (Conv3d + ReLU + LeakyReLU + GELU + sigmoid + bias add):
// sigmoid(gelu(leaky_relu(relu(conv3d(x, w, b)), 0.01))) + bias, with a 3x3x3 kernel, stride 1,
// no padding, exact (erf) GELU, and bias of shape [CO, 1, 1, 1] broadcast over D, H, W.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr double kNegativeSlope = 0.01;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bias) {
  torch::Tensor y = torch::conv3d(x, conv_weight, conv_bias, kStride, kPadding);
  y = torch::relu(y);
  y = torch::leaky_relu(y, kNegativeSlope);
  y = torch::gelu(y);
  y = torch::sigmoid(y);
  return y + bias;
}
