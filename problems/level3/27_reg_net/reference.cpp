// Reference for level3/27 (RegNet): three stages of [conv3x3 -> BN -> ReLU -> conv3x3 -> BN ->
// ReLU -> MaxPool 2x2], then the spatial mean and a Linear layer. BatchNorm in training mode
// (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int kStages = 3;
constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here

// Conv2d(k3, stride 1, padding 1, bias) -> BatchNorm2d (batch statistics) -> ReLU.
torch::Tensor conv_bn_relu(const torch::Tensor& x, const torch::Tensor& conv_w,
                           const torch::Tensor& conv_b, const torch::Tensor& bn_w,
                           const torch::Tensor& bn_b) {
  torch::Tensor h = torch::conv2d(x, conv_w, conv_b, /*stride=*/1, /*padding=*/1);
  h = torch::batch_norm(h, bn_w, bn_b, /*running_mean=*/{}, /*running_var=*/{},
                        /*training=*/true, kBnMomentum, kBnEps, /*cudnn_enabled=*/false);
  return torch::relu(h);
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor h = x;
  for (int s = 0; s < kStages; ++s) {
    for (int layer = 0; layer < 2; ++layer) {
      torch::Tensor conv_w = next();
      torch::Tensor conv_b = next();
      torch::Tensor bn_w = next();
      torch::Tensor bn_b = next();
      h = conv_bn_relu(h, conv_w, conv_b, bn_w, bn_b);
    }
    h = torch::max_pool2d(h, /*kernel_size=*/2, /*stride=*/2);
  }
  torch::Tensor fc_w = next();
  torch::Tensor fc_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = h.mean({2, 3});  // [B, C3]
  return F::linear(h, fc_w, fc_b);
}
