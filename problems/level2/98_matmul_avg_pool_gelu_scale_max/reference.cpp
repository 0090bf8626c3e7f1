// Reference for level2/98 (Matmul + AvgPool1d + GELU + scale + max):
// z = avg_pool1d(linear(x, weight, bias).unsqueeze(1), 16).squeeze(1);
// return max(gelu(z) * 2.0, dim 1).values, exact (erf) GELU.
#include <torch/torch.h>

constexpr int64_t kPoolKernel[1] = {16};
constexpr int64_t kPoolStride[1] = {16};
constexpr int64_t kPoolPadding[1] = {0};
constexpr double kScaleFactor = 2.0;
constexpr int64_t kFeatureDim = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor z = torch::nn::functional::linear(x, weight, bias);
  z = torch::avg_pool1d(z.unsqueeze(1), kPoolKernel, kPoolStride, kPoolPadding,
                        /*ceil_mode=*/false, /*count_include_pad=*/true)
          .squeeze(1);
  z = torch::gelu(z) * kScaleFactor;
  return std::get<0>(torch::max(z, kFeatureDim));
}
