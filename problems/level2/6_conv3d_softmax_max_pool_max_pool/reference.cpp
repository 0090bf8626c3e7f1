// Reference for level2/6 (Conv3d + softmax + MaxPool + MaxPool):
// conv3d(x, w, b) with a 3x3x3 kernel, stride 1, no padding; softmax over channels (dim 1);
// two MaxPool3d(kernel 2, stride 2, no padding).
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr int64_t kPool[3] = {2, 2, 2};
constexpr int64_t kPoolPadding[3] = {0, 0, 0};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv3d(x, conv_weight, conv_bias, kStride, kPadding);
  y = torch::softmax(y, /*dim=*/1);
  y = torch::max_pool3d(y, kPool, kPool, kPoolPadding);
  return torch::max_pool3d(y, kPool, kPool, kPoolPadding);
}
