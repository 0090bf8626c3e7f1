// Reference for level2/51 (Gemm + subtract + GlobalAvgPool + LogSumExp + GELU + residual add):
// x + gelu(logsumexp(mean(linear(x, weight, bias) - subtract, dim 1, keepdim), dim 1, keepdim)),
// the residual being the unmodified input x.
#include <torch/torch.h>

constexpr int64_t kDim = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                      torch::Tensor subtract) {
  torch::Tensor residual = x;  // KernelBench: x.clone().detach(), the same values
  torch::Tensor y = torch::nn::functional::linear(x, weight, bias) - subtract;
  y = torch::mean(y, {kDim}, /*keepdim=*/true);
  y = torch::logsumexp(y, {kDim}, /*keepdim=*/true);
  y = torch::gelu(y);
  return y + residual;
}
