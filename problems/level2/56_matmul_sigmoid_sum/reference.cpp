// Reference for level2/56 (Matmul + Sigmoid + Sum):
// sum(sigmoid(linear(x, weight, bias)), dim 1, keepdim) -> [B, 1].
#include <torch/torch.h>

constexpr int64_t kSumDim = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor y = torch::sigmoid(torch::nn::functional::linear(x, weight, bias));
  return torch::sum(y, {kSumDim}, /*keepdim=*/true);
}
