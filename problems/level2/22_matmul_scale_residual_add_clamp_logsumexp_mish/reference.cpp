// Reference for level2/22 (Matmul + scale + residual add + clamp + LogSumExp + Mish):
// z = linear(x, w, b) * 2.0; z = z + z; z = clamp(z, -10, 10); l = logsumexp(z, dim 1, keepdim);
// y = l * mish(l).
#include <torch/torch.h>

constexpr double kScaleFactor = 2.0;
constexpr double kClampMin = -10.0;
constexpr double kClampMax = 10.0;
constexpr int64_t kDim = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor y = torch::nn::functional::linear(x, weight, bias);
  y = y * kScaleFactor;
  y = y + y;  // KernelBench's "residual add" adds the tensor to itself
  y = torch::clamp(y, kClampMin, kClampMax);
  y = torch::logsumexp(y, {kDim}, /*keepdim=*/true);  // [B, 1]
  return y * torch::mish(y);
}
