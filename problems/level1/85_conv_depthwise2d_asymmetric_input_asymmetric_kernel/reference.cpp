// Reference for level1/85 (Depthwise Conv2d, asymmetric input, asymmetric kernel):
// Conv2d(128 -> 128, kernel (3, 7), stride (1, 1), padding (0, 0), dilation (1, 1),
// groups 128 (= in_channels), no bias). KernelBench's out_channels and groups arguments are
// ignored by its model; the layer is always depthwise in -> in. Output extents: H - 2, W - 6.
#include <torch/torch.h>

constexpr int64_t kStride[2] = {1, 1};
constexpr int64_t kPadding[2] = {0, 0};
constexpr int64_t kDilation[2] = {1, 1};
constexpr int64_t kGroups = 128;  // depthwise: one group per (input) channel

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv2d(x, weight, /*bias=*/torch::Tensor(), kStride, kPadding, kDilation,
                       kGroups);
}
