// Reference for level3/25 (ShuffleNetUnit): grouped conv1x1 -> BN -> ReLU -> depthwise
// conv3x3 -> BN -> channel shuffle -> grouped conv1x1 -> BN -> ReLU, plus a conv1x1 -> BN
// shortcut. BatchNorm in training mode (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int64_t kGroups = 3;
constexpr int64_t kStride = 1;
constexpr int64_t kNoPadding = 0;
constexpr int64_t kDilation = 1;
constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here

torch::Tensor bn(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) {
  return torch::batch_norm(x, w, b, /*running_mean=*/{}, /*running_var=*/{}, /*training=*/true,
                           kBnMomentum, kBnEps, /*cudnn_enabled=*/false);
}

// [B, g*n, H, W] viewed as [B, g, n, H, W], transposed to [B, n, g, H, W], flattened back.
torch::Tensor shuffle_channels(const torch::Tensor& x, int64_t groups) {
  const int64_t b = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
  return x.view({b, groups, c / groups, h, w}).transpose(1, 2).contiguous().view({b, c, h, w});
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor conv1_w = next();
  torch::Tensor bn1_w = next();
  torch::Tensor bn1_b = next();
  torch::Tensor dw_w = next();
  torch::Tensor bn2_w = next();
  torch::Tensor bn2_b = next();
  torch::Tensor conv3_w = next();
  torch::Tensor bn3_w = next();
  torch::Tensor bn3_b = next();
  torch::Tensor shortcut_w = next();
  torch::Tensor shortcut_bn_w = next();
  torch::Tensor shortcut_bn_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  // All convs: stride 1, no bias.
  torch::Tensor h = torch::conv2d(x, conv1_w, {}, kStride, kNoPadding, kDilation, kGroups);
  h = torch::relu(bn(h, bn1_w, bn1_b));
  const int64_t mid = h.size(1);
  const int64_t pad = 1;
  h = torch::conv2d(h, dw_w, {}, kStride, pad, kDilation, /*groups=*/mid);  // depthwise
  h = bn(h, bn2_w, bn2_b);  // no ReLU
  h = shuffle_channels(h, kGroups);
  h = torch::conv2d(h, conv3_w, {}, kStride, kNoPadding, kDilation, kGroups);
  h = torch::relu(bn(h, bn3_w, bn3_b));
  return h + bn(torch::conv2d(x, shortcut_w), shortcut_bn_w, shortcut_bn_b);
}
