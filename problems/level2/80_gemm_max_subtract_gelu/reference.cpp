// Reference for level2/80 (Gemm + max + subtract mean + GELU):
// m = max(linear(x), dim 1, keepdim); gelu(m - mean(m, dim 1, keepdim)). The mean runs over a
// size-1 dim, so the output is identically 0 (KernelBench's quirk, kept).
#include <torch/torch.h>

constexpr int64_t kMaxDim = 1;
constexpr int64_t kMeanDim[1] = {kMaxDim};

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor z = torch::nn::functional::linear(x, weight, bias);
  torch::Tensor m = std::get<0>(torch::max(z, kMaxDim, /*keepdim=*/true));  // [B, 1]
  torch::Tensor d = m - torch::mean(m, kMeanDim, /*keepdim=*/true);
  return torch::gelu(d);  // exact (erf) GELU, PyTorch's default
}
