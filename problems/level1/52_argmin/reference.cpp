// Reference for level1/52 (argmin over a dimension): int64 index of the min over dim 1 (the
// first one on ties, as PyTorch documents).
#include <torch/torch.h>

constexpr int64_t kDim = 1;

torch::Tensor forward(torch::Tensor x) {
  return torch::argmin(x, kDim, /*keepdim=*/false);
}
