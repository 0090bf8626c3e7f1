// Reference for level3/8 (ResNetBasicBlock): conv3x3 -> BN -> ReLU -> conv3x3 -> BN, plus a
// conv1x1 -> BN shortcut, added, then ReLU. BatchNorm in training mode (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int64_t kStride = 1;       // the constructor's stride
constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here

// BatchNorm2d in training mode: per-channel batch mean and biased variance, no running buffers.
torch::Tensor bn(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) {
  return torch::batch_norm(x, w, b, /*running_mean=*/{}, /*running_var=*/{}, /*training=*/true,
                           kBnMomentum, kBnEps, /*cudnn_enabled=*/false);
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor conv1_w = next();
  torch::Tensor bn1_w = next();
  torch::Tensor bn1_b = next();
  torch::Tensor conv2_w = next();
  torch::Tensor bn2_w = next();
  torch::Tensor bn2_b = next();
  torch::Tensor down_w = next();
  torch::Tensor down_bn_w = next();
  torch::Tensor down_bn_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  // Convs have no bias; 3x3 ones pad 1, so every map stays H x W at stride 1.
  torch::Tensor out = torch::conv2d(x, conv1_w, {}, kStride, /*padding=*/1);
  out = torch::relu(bn(out, bn1_w, bn1_b));
  out = bn(torch::conv2d(out, conv2_w, {}, /*stride=*/1, /*padding=*/1), bn2_w, bn2_b);
  torch::Tensor identity = bn(torch::conv2d(x, down_w, {}, kStride), down_bn_w, down_bn_b);
  return torch::relu(out + identity);
}
