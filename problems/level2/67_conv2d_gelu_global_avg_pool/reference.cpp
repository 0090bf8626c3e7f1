// Reference for level2/67 (Conv2d + GELU + global average pool):
// adaptive_avg_pool2d(gelu(conv2d(x, conv_weight, conv_bias)), 1), squeezed to [B, CO]; 3x3
// kernel, stride 1, no padding; exact (erf) GELU.
#include <torch/torch.h>

#include <vector>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor z = torch::conv2d(x, conv_weight, conv_bias, kStride, kPadding);
  z = torch::gelu(z);
  const std::vector<int64_t> output_size = {1, 1};
  z = torch::adaptive_avg_pool2d(z, output_size);
  return z.squeeze(-1).squeeze(-1);
}
