// Reference for level2/39 (Gemm + scale + BatchNorm1d, training mode):
// batch_norm(linear(x, weight, bias) * scale) with batch statistics, eps 1e-5.
#include <torch/torch.h>

constexpr double kEps = 1e-5;      // nn.BatchNorm1d default
constexpr double kMomentum = 0.1;  // only moves running stats, which are not kept here

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                      torch::Tensor scale, torch::Tensor bn_weight, torch::Tensor bn_bias) {
  torch::Tensor y = torch::nn::functional::linear(x, weight, bias) * scale;
  // Training mode: batch statistics over the B rows; no running buffers.
  return torch::batch_norm(y, bn_weight, bn_bias, /*running_mean=*/{}, /*running_var=*/{},
                           /*training=*/true, kMomentum, kEps, /*cudnn_enabled=*/true);
}
