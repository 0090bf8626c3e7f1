// Reference for level2/84 (Gemm + BatchNorm (training) + scaling + Softmax):
// softmax(scale * batch_norm(linear(x)), dim 1), BatchNorm1d in training mode (batch statistics
// per feature, biased variance, eps 1e-5); scale has one element.
#include <torch/torch.h>

constexpr double kEps = 1e-5;      // bn_eps
constexpr double kMomentum = 0.1;  // bn_momentum: only moves running stats, not kept here
constexpr int64_t kSoftmaxDim = 1;

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias,
                      torch::Tensor bn_weight, torch::Tensor bn_bias, torch::Tensor scale) {
  torch::Tensor z = torch::nn::functional::linear(x, weight, bias);
  z = torch::batch_norm(z, bn_weight, bn_bias, /*running_mean=*/{}, /*running_var=*/{},
                        /*training=*/true, kMomentum, kEps, /*cudnn_enabled=*/true);
  return torch::softmax(scale * z, kSoftmaxDim);
}
