// Reference for level2/75 (Gemm + GroupNorm + min + bias add):
// min(group_norm(linear(x), 512 groups), dim 1, keepdim) + bias[1, OUT, 1, 1], which broadcasts
// the [B, 1] row minima to a [1, OUT, B, 1] output (KernelBench's quirk, kept).
#include <torch/torch.h>

constexpr int64_t kGroups = 512;
constexpr double kEps = 1e-5;  // nn.GroupNorm default

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias_linear,
                      torch::Tensor gn_weight, torch::Tensor gn_bias, torch::Tensor bias) {
  torch::Tensor z = torch::nn::functional::linear(x, weight, bias_linear);
  z = torch::group_norm(z, kGroups, gn_weight, gn_bias, kEps, /*cudnn_enabled=*/true);
  torch::Tensor m = std::get<0>(torch::min(z, /*dim=*/1, /*keepdim=*/true));  // [B, 1]
  return m + bias;  // [B, 1] + [1, OUT, 1, 1] -> [1, OUT, B, 1]
}
