// Reference for level2/5 (ConvTranspose2d + subtract + tanh):
// tanh(conv_transpose2d(x, w, b, stride 2, padding 1, output_padding 1) - bias), with bias of
// shape [CO, 1, 1] broadcast over the spatial dims.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {2, 2};
constexpr int64_t kPadding[2] = {1, 1};
constexpr int64_t kOutputPadding[2] = {1, 1};
constexpr int64_t kGroups = 1;
constexpr int64_t kDilation[2] = {1, 1};

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor bias) {
  torch::Tensor y = torch::conv_transpose2d(x, conv_weight, conv_bias, kStride, kPadding,
                                            kOutputPadding, kGroups, kDilation);
  return torch::tanh(y - bias);
}
