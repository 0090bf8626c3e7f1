// Reference for level1/7 (matrix multiplication with a small K): C = A @ B, A is M x K,
// B is K x N, K = 64.
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor A, torch::Tensor B) {
  return torch::matmul(A, B);
}
