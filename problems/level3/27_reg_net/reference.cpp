// Reference for level3/27 (RegNet): three stages of [conv3x3 -> BN -> ReLU -> conv3x3 -> BN ->
// ReLU -> MaxPool 2x2], then the spatial mean and a Linear layer. BatchNorm in training mode
// (batch statistics).
#include <torch/torch.h>

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

torch::Tensor forward(torch::Tensor x, torch::Tensor conv1_w, torch::Tensor conv1_b,
                      torch::Tensor bn1_w, torch::Tensor bn1_b, torch::Tensor conv2_w,
                      torch::Tensor conv2_b, torch::Tensor bn2_w, torch::Tensor bn2_b,
                      torch::Tensor conv3_w, torch::Tensor conv3_b, torch::Tensor bn3_w,
                      torch::Tensor bn3_b, torch::Tensor conv4_w, torch::Tensor conv4_b,
                      torch::Tensor bn4_w, torch::Tensor bn4_b, torch::Tensor conv5_w,
                      torch::Tensor conv5_b, torch::Tensor bn5_w, torch::Tensor bn5_b,
                      torch::Tensor conv6_w, torch::Tensor conv6_b, torch::Tensor bn6_w,
                      torch::Tensor bn6_b, torch::Tensor fc_w, torch::Tensor fc_b) {
  namespace F = torch::nn::functional;
  const torch::Tensor conv_w[] = {conv1_w, conv2_w, conv3_w, conv4_w, conv5_w, conv6_w};
  const torch::Tensor conv_b[] = {conv1_b, conv2_b, conv3_b, conv4_b, conv5_b, conv6_b};
  const torch::Tensor bn_w[] = {bn1_w, bn2_w, bn3_w, bn4_w, bn5_w, bn6_w};
  const torch::Tensor bn_b[] = {bn1_b, bn2_b, bn3_b, bn4_b, bn5_b, bn6_b};
  torch::Tensor h = x;
  for (int s = 0; s < kStages; ++s) {
    h = conv_bn_relu(h, conv_w[2 * s], conv_b[2 * s], bn_w[2 * s], bn_b[2 * s]);
    h = conv_bn_relu(h, conv_w[2 * s + 1], conv_b[2 * s + 1], bn_w[2 * s + 1], bn_b[2 * s + 1]);
    h = torch::max_pool2d(h, /*kernel_size=*/2, /*stride=*/2);
  }
  h = h.mean({2, 3});  // [B, C3]
  return F::linear(h, fc_w, fc_b);
}
