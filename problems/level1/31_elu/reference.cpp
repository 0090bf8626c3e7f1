// Reference for level1/31 (ELU): x if x > 0 else alpha * (exp(x) - 1), elementwise.
#include <torch/torch.h>

constexpr double kAlpha = 1.0;  // KernelBench passes alpha=1.0 to the constructor

torch::Tensor forward(torch::Tensor x) {
  return torch::elu(x, kAlpha);
}
