// Reference for level2/40 (Gemm + scaling + residual add):
// v = linear(x, weight, bias); v * 0.5 + v, where the "residual" is a detached copy of v.
#include <torch/torch.h>

constexpr double kScalingFactor = 0.5;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor v = torch::nn::functional::linear(x, weight, bias);
  torch::Tensor residual = v;  // clone().detach(): the same values
  return v * kScalingFactor + residual;
}
