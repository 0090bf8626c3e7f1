// Reference for level1/8 (matrix multiplication with irregular shapes): C = A @ B, A is M x K,
// B is K x N, with M, K, N odd.
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor A, torch::Tensor B) {
  return torch::matmul(A, B);
}
