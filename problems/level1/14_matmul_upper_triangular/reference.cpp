// Reference for level1/14 (matrix multiplication of upper-triangular matrices):
// C = triu(A @ B), A and B N x N and upper-triangular (the harness draws them so).
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor A, torch::Tensor B) {
  return torch::triu(torch::matmul(A, B));
}
