// Reference for level1/29 (Softplus): x if beta * x > threshold else log(1 + exp(beta * x)) / beta,
// elementwise.
#include <torch/torch.h>

constexpr double kBeta = 1.0;        // F.softplus default, used by KernelBench
constexpr double kThreshold = 20.0;  // F.softplus default, used by KernelBench

torch::Tensor forward(torch::Tensor x) {
  return torch::softplus(x, kBeta, kThreshold);
}
