// Reference for level2/64 (Gemm + LogSumExp + LeakyReLU + LeakyReLU + GELU + GELU):
// s = logsumexp(linear(x, weight, bias), dim 1, keepdim); then leaky_relu(., 0.01) twice and
// the exact (erf) GELU twice. Output [B, 1].
#include <torch/torch.h>

constexpr double kNegativeSlope = 0.01;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor s = torch::nn::functional::linear(x, weight, bias);
  s = torch::logsumexp(s, /*dim=*/{1}, /*keepdim=*/true);
  s = torch::leaky_relu(s, kNegativeSlope);
  s = torch::leaky_relu(s, kNegativeSlope);
  s = torch::gelu(s);
  return torch::gelu(s);
}
