// Reference for level1/91 (reverse cumsum): suffix sum along dim 1, as flip -> cumsum -> flip.
#include <torch/torch.h>

constexpr int64_t kDim = 1;

torch::Tensor forward(torch::Tensor x) {
  return torch::flip(torch::cumsum(torch::flip(x, {kDim}), kDim), {kDim});
}
