// Reference for level1/76 (Conv1d, dilated and strided):
// Conv1d(64 -> 128, kernel 3, stride 3, padding 0, dilation 4, groups 1, no bias).
// Output length: (L - 4*(3-1) - 1)/3 + 1 = (L - 9)/3 + 1.
#include <torch/torch.h>

constexpr int64_t kStride = 3;
constexpr int64_t kPadding = 0;
constexpr int64_t kDilation = 4;
constexpr int64_t kGroups = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv1d(x, weight, /*bias=*/torch::Tensor(), {kStride}, {kPadding}, {kDilation},
                       kGroups);
}
