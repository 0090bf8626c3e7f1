// Reference for level2/65 (Conv2d + AvgPool + Sigmoid + sum):
// sum(sigmoid(avg_pool2d(conv2d(x, conv_weight, conv_bias), 4)), dims 1, 2, 3), with a 3x3
// kernel, stride 1, no padding; the pool has a 4x4 window, stride 4, no padding. Output [B].
#include <torch/torch.h>

#include <vector>

constexpr int64_t kConvStride[2] = {1, 1};
constexpr int64_t kConvPadding[2] = {0, 0};
constexpr int64_t kPoolKernel[2] = {4, 4};
constexpr int64_t kPoolStride[2] = {4, 4};
constexpr int64_t kPoolPadding[2] = {0, 0};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor z = torch::conv2d(x, conv_weight, conv_bias, kConvStride, kConvPadding);
  z = torch::avg_pool2d(z, kPoolKernel, kPoolStride, kPoolPadding, /*ceil_mode=*/false,
                        /*count_include_pad=*/true);
  z = torch::sigmoid(z);
  const std::vector<int64_t> dims = {1, 2, 3};
  return torch::sum(z, dims);
}
