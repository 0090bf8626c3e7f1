// Reference for level1/6 (matrix multiplication with a large K): C = A @ B, A is M x K,
// B is K x N, K >> M, N.
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor A, torch::Tensor B) {
  return torch::matmul(A, B);
}
