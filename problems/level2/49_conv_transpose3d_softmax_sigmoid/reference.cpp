// Reference for level2/49 (ConvTranspose3d + Softmax + Sigmoid):
// sigmoid(softmax(conv_transpose3d(x), dim = 1)), transposed conv with kernel 3, stride 2,
// padding 1, output_padding 1, groups 1, dilation 1, with bias.
#include <torch/torch.h>

constexpr int64_t kStride[3] = {2, 2, 2};
constexpr int64_t kPadding[3] = {1, 1, 1};
constexpr int64_t kOutputPadding[3] = {1, 1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[3] = {1, 1, 1};
constexpr int64_t kSoftmaxDim = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias) {
  torch::Tensor y = torch::conv_transpose3d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  return torch::sigmoid(torch::softmax(y, kSoftmaxDim));
}
