// Reference for level3/14 (DenseNet121DenseBlock): six layers of BatchNorm2d (training mode,
// batch statistics) -> ReLU -> conv3x3 without bias (growth G channels), each taking the
// concatenation of the input and every earlier layer's output; returns the final concatenation.
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int kLayers = 6;
constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here

}  // namespace

torch::Tensor forward(torch::Tensor x, torch::Tensor bn1_w, torch::Tensor bn1_b,
                      torch::Tensor conv1_w, torch::Tensor bn2_w, torch::Tensor bn2_b,
                      torch::Tensor conv2_w, torch::Tensor bn3_w, torch::Tensor bn3_b,
                      torch::Tensor conv3_w, torch::Tensor bn4_w, torch::Tensor bn4_b,
                      torch::Tensor conv4_w, torch::Tensor bn5_w, torch::Tensor bn5_b,
                      torch::Tensor conv5_w, torch::Tensor bn6_w, torch::Tensor bn6_b,
                      torch::Tensor conv6_w) {
  const torch::Tensor bn_w[kLayers] = {bn1_w, bn2_w, bn3_w, bn4_w, bn5_w, bn6_w};
  const torch::Tensor bn_b[kLayers] = {bn1_b, bn2_b, bn3_b, bn4_b, bn5_b, bn6_b};
  const torch::Tensor conv_w[kLayers] = {conv1_w, conv2_w, conv3_w, conv4_w, conv5_w, conv6_w};
  std::vector<torch::Tensor> features = {x};
  torch::Tensor h = x;
  for (int i = 0; i < kLayers; ++i) {
    torch::Tensor y = torch::batch_norm(h, bn_w[i], bn_b[i], /*running_mean=*/{},
                                        /*running_var=*/{}, /*training=*/true, kBnMomentum,
                                        kBnEps, /*cudnn_enabled=*/false);
    y = torch::conv2d(torch::relu(y), conv_w[i], /*bias=*/{}, /*stride=*/1, /*padding=*/1);
    features.push_back(y);
    h = torch::cat(features, /*dim=*/1);
  }
  return h;
}
