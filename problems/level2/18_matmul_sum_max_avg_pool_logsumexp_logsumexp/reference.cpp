// Reference for level2/18 (Matmul + sum + max + AvgPool + LogSumExp + LogSumExp):
// logsumexp(logsumexp(mean(max(sum(linear(x, w, b), 1, keepdim), 1, keepdim), 1, keepdim),
// 1, keepdim), 1, keepdim). After the sum every later reduction acts on a size-1 dim.
#include <torch/torch.h>

constexpr int64_t kDim = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor y = torch::nn::functional::linear(x, weight, bias);  // [B, OUT]
  y = torch::sum(y, {kDim}, /*keepdim=*/true);                       // [B, 1]
  y = std::get<0>(torch::max(y, kDim, /*keepdim=*/true));            // identity
  y = torch::mean(y, {kDim}, /*keepdim=*/true);                      // identity
  y = torch::logsumexp(y, {kDim}, /*keepdim=*/true);                 // identity up to rounding
  y = torch::logsumexp(y, {kDim}, /*keepdim=*/true);                 // identity up to rounding
  return y;
}
