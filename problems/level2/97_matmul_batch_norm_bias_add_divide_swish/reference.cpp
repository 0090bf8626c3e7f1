// Reference for level2/97 (Matmul + BatchNorm (training mode) + bias add + divide + Swish):
// z = batch_norm(linear(x, gemm_weight, gemm_bias)) with batch statistics (eps 1e-5);
// z = (z + bias) / 1.0; return z * sigmoid(z).
#include <torch/torch.h>

constexpr double kEps = 1e-5;
constexpr double kMomentum = 0.1;  // only moves running stats, which are not kept here
constexpr double kDivideValue = 1.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor gemm_weight, torch::Tensor gemm_bias,
                      torch::Tensor bn_weight, torch::Tensor bn_bias, torch::Tensor bias) {
  torch::Tensor z = torch::nn::functional::linear(x, gemm_weight, gemm_bias);
  z = torch::batch_norm(z, bn_weight, bn_bias, /*running_mean=*/{}, /*running_var=*/{},
                        /*training=*/true, kMomentum, kEps, /*cudnn_enabled=*/true);
  z = z + bias;
  z = z / kDivideValue;
  return z * torch::sigmoid(z);
}
