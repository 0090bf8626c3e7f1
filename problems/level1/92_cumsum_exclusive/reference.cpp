// Reference for level1/92 (exclusive cumsum): out[:, 0] = 0, out[:, j] = sum of x[:, 0..j-1],
// as KernelBench's current (post-v0.1) version builds it.
#include <torch/torch.h>

constexpr int64_t kDim = 1;

torch::Tensor forward(torch::Tensor x) {
  torch::Tensor zeros = torch::zeros({x.size(0), 1}, x.options());
  torch::Tensor head = x.slice(kDim, 0, x.size(kDim) - 1);
  return torch::cat({zeros, torch::cumsum(head, kDim)}, kDim);
}
