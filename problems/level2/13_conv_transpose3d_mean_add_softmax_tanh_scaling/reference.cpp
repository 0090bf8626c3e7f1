// Reference for level2/13 (ConvTranspose3d + mean + add + softmax + tanh + scaling):
// conv_transpose3d(x, w, b, stride 1, padding 1), mean over depth (dim 2, keepdim),
// + bias [1, CO, 1, 1, 1], softmax over channels, tanh, * 2.0 -> [B, CO, 1, H, W].
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {0, 0, 0};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr int64_t kMeanDims[1] = {2};
constexpr double kScalingFactor = 2.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bias) {
  torch::Tensor y = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  y = torch::mean(y, kMeanDims, /*keepdim=*/true);
  y = y + bias;
  y = torch::softmax(y, /*dim=*/1);
  y = torch::tanh(y);
  return y * kScalingFactor;
}
