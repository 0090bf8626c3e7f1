// Reference for level1/24 (LogSoftmax): log-softmax over dim 1 of a [B, D] tensor.
#include <torch/torch.h>

constexpr int64_t kDim = 1;

torch::Tensor forward(torch::Tensor x) {
  return torch::log_softmax(x, kDim);
}
