// Reference for level2/89 (ConvTranspose3d + MaxPool3d + softmax + subtract + Swish + max):
// z = max_pool3d(conv_transpose3d(x), 2); z = softmax(z, 1) - subtract.view(1, CO, 1, 1, 1);
// z = z * sigmoid(z); return max(z, 1).values. 3x3x3 kernel, stride 2, padding 1,
// output_padding 1.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {1, 1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr int64_t kPoolKernel[3] = {2, 2, 2};
constexpr int64_t kPoolStride[3] = {2, 2, 2};
constexpr int64_t kPoolPadding[3] = {0, 0, 0};
constexpr int64_t kPoolDilation[3] = {1, 1, 1};
constexpr int64_t kChannelDim = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor subtract) {
  torch::Tensor z = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  z = torch::max_pool3d(z, kPoolKernel, kPoolStride, kPoolPadding, kPoolDilation,
                        /*ceil_mode=*/false);
  z = torch::softmax(z, kChannelDim);
  z = z - subtract.view({1, -1, 1, 1, 1});
  z = torch::sigmoid(z) * z;
  return std::get<0>(torch::max(z, kChannelDim));
}
