// Reference for level2/76 (Gemm + bias add + ReLU):
// relu(x @ weight^T + bias), where the Linear has no bias and bias is a separate [OUT] parameter.
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
  torch::Tensor y = torch::nn::functional::linear(x, weight) + bias;
  return torch::relu(y);
}
