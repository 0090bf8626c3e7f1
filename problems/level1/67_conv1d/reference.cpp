// Reference for level1/67 (Conv1d):
// Conv1d(64 -> 128, kernel 3, stride 1, padding 0, dilation 1, groups 1, no bias).
// Output length: L - 2.
#include <torch/torch.h>

constexpr int64_t kStride = 1;
constexpr int64_t kPadding = 0;
constexpr int64_t kDilation = 1;
constexpr int64_t kGroups = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight) {
  return torch::conv1d(x, weight, /*bias=*/torch::Tensor(), {kStride}, {kPadding}, {kDilation},
                       kGroups);
}
