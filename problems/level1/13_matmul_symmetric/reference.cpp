// Reference for level1/13 (matrix multiplication of symmetric matrices): C = A @ B, both N x N
// and symmetric (the harness draws them so).
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor A, torch::Tensor B) {
  return torch::matmul(A, B);
}
