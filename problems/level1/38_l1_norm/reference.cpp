// Reference for level1/38 (L1 normalisation): x / mean(|x|) over dim 1, kept as [B, 1].
#include <torch/torch.h>

constexpr int64_t kDim = 1;

torch::Tensor forward(torch::Tensor x) {
  return x / torch::mean(torch::abs(x), {kDim}, /*keepdim=*/true);
}
