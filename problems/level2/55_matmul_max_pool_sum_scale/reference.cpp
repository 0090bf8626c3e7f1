// Reference for level2/55 (Matmul + MaxPool + Sum + scale):
// sum(max_pool1d(linear(x, weight, bias).unsqueeze(1), 2, 2).squeeze(1), dim 1) * 0.5.
#include <torch/torch.h>

constexpr int64_t kPool[1] = {2};  // MaxPool1d kernel; stride defaults to the kernel
constexpr int64_t kPoolPadding[1] = {0};
constexpr int64_t kPoolDilation[1] = {1};
constexpr double kScaleFactor = 0.5;
constexpr int64_t kSumDim = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor y = torch::nn::functional::linear(x, weight, bias).unsqueeze(1);  // [B, 1, OUT]
  y = torch::max_pool1d(y, kPool, kPool, kPoolPadding, kPoolDilation, /*ceil_mode=*/false);
  y = y.squeeze(1);                                                                // [B, OUT/2]
  return torch::sum(y, {kSumDim}, /*keepdim=*/false) * kScaleFactor;             // [B]
}
