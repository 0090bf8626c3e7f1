// Reference for level2/91 (ConvTranspose2d + softmax + bias add + scaling + sigmoid):
// sigmoid((softmax(conv_transpose2d(x), 1) + bias) * 2.0), with a 4x4 kernel, stride 2,
// padding 1, output_padding 1; bias is [CO, 1, 1].
#include <torch/torch.h>

constexpr int64_t kStride[2] = {2, 2};
constexpr int64_t kPadding[2] = {1, 1};
constexpr int64_t kOutputPadding[2] = {1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[2] = {1, 1};
constexpr int64_t kChannelDim = 1;
constexpr double kScalingFactor = 2.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bias) {
  torch::Tensor y = torch::conv_transpose2d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = torch::softmax(y, kChannelDim);
  y = y + bias;
  y = y * kScalingFactor;
  return torch::sigmoid(y);
}
