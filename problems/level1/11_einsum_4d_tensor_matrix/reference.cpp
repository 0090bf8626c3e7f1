// Reference for level1/11 (4-D tensor times matrix): C = einsum("bijl,lk->bijk", A, B),
// A is [BATCH, I, J, L], B is [L, K], C is [BATCH, I, J, K].
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor A, torch::Tensor B) {
  return torch::einsum("bijl,lk->bijk", {A, B});
}
