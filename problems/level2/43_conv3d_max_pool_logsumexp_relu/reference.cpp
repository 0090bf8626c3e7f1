// Reference for level2/43 (Conv3d + MaxPool3d + logsumexp + ReLU):
// relu(logsumexp_1(max_pool3d(conv3d(x, conv_weight, conv_bias), 2))), with a 3x3x3 kernel,
// stride 1, padding 1, and a 2x2x2 pool with stride 2.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kPoolKernel[3] = {2, 2, 2};
constexpr int64_t kPoolStride[3] = {2, 2, 2};
constexpr int64_t kPoolPadding[3] = {0, 0, 0};
constexpr int64_t kPoolDilation[3] = {1, 1, 1};
constexpr int64_t kChannelDim[1] = {1};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y =
      torch::conv3d(x, conv_weight, conv_bias, kStride, kPadding, kDilation, kGroups);
  y = torch::max_pool3d(y, kPoolKernel, kPoolStride, kPoolPadding, kPoolDilation,
                        /*ceil_mode=*/false);
  y = torch::logsumexp(y, kChannelDim, /*keepdim=*/true);
  return torch::relu(y);
}
