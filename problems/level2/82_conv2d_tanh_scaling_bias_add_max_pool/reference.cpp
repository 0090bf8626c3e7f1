// Reference for level2/82 (Conv2d + Tanh + scaling + bias add + MaxPool2d):
// max_pool2d(tanh(conv2d(x)) * 2.0 + bias, 4), with a 3x3 kernel (stride 1, no padding), bias of
// shape [CO, 1, 1], and a 4x4 pool with stride 4 and no padding.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr double kScalingFactor = 2.0;
constexpr int64_t kPool[2] = {4, 4};
constexpr int64_t kPoolPadding[2] = {0, 0};
constexpr int64_t kPoolDilation[2] = {1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bias) {
  torch::Tensor z = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding);
  z = torch::tanh(z) * kScalingFactor + bias;
  return torch::max_pool2d(z, kPool, kPool, kPoolPadding, kPoolDilation, /*ceil_mode=*/false);
}
