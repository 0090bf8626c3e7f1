// Reference for level3/26 (ShuffleNet): conv3x3 stride 2 -> BN -> ReLU -> max pool, three stages
// of 3, 7 and 3 stride-1 ShuffleNet units (grouped conv1x1 -> BN -> ReLU -> depthwise conv3x3 ->
// BN -> channel shuffle -> grouped conv1x1 -> BN -> ReLU, plus a shortcut), then conv1x1 -> BN ->
// ReLU -> global average pool -> Linear. BatchNorm in training mode (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int kStageUnits[] = {3, 7, 3};
constexpr int64_t kGroups = 3;
constexpr int64_t kUnitStride = 1;  // no unit downsamples
constexpr int64_t kNoPadding = 0;
constexpr int64_t kDilation = 1;
constexpr int64_t kStemStride = 2;
constexpr int64_t kPoolKernel = 3;  // MaxPool2d(3, stride 2, padding 1)
constexpr int64_t kPoolStride = 2;
constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here

// BatchNorm2d in training mode: per-channel batch mean and biased variance, no running buffers.
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
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };

  // Stem: conv3x3 (stride 2, pad 1, no bias) -> BN -> ReLU -> max pool 3x3 (stride 2, pad 1).
  torch::Tensor stem_w = next();
  torch::Tensor stem_bn_w = next();
  torch::Tensor stem_bn_b = next();
  torch::Tensor h = torch::conv2d(x, stem_w, /*bias=*/{}, kStemStride, /*padding=*/1);
  h = torch::relu(bn(h, stem_bn_w, stem_bn_b));
  h = torch::max_pool2d(h, kPoolKernel, kPoolStride, /*padding=*/1);

  for (int units : kStageUnits) {
    for (int u = 0; u < units; ++u) {
      torch::Tensor conv1_w = next();
      torch::Tensor bn1_w = next();
      torch::Tensor bn1_b = next();
      torch::Tensor conv2_w = next();
      torch::Tensor bn2_w = next();
      torch::Tensor bn2_b = next();
      torch::Tensor conv3_w = next();
      torch::Tensor bn3_w = next();
      torch::Tensor bn3_b = next();
      // Every conv of a unit has stride 1 and no bias.
      torch::Tensor out =
          torch::conv2d(h, conv1_w, {}, kUnitStride, kNoPadding, kDilation, kGroups);
      out = torch::relu(bn(out, bn1_w, bn1_b));
      const int64_t mid = out.size(1);
      out = torch::conv2d(out, conv2_w, {}, kUnitStride, /*padding=*/1, kDilation,
                          /*groups=*/mid);  // depthwise
      out = bn(out, bn2_w, bn2_b);          // no ReLU
      out = shuffle_channels(out, kGroups);
      out = torch::conv2d(out, conv3_w, {}, kUnitStride, kNoPadding, kDilation, kGroups);
      out = torch::relu(bn(out, bn3_w, bn3_b));
      // Shortcut: conv1x1 -> BN in a stage's first unit, which widens; the identity elsewhere.
      if (u == 0) {
        torch::Tensor shortcut_w = next();
        torch::Tensor shortcut_bn_w = next();
        torch::Tensor shortcut_bn_b = next();
        h = out + bn(torch::conv2d(h, shortcut_w), shortcut_bn_w, shortcut_bn_b);
      } else {
        h = out + h;
      }
    }
  }

  // Head: conv1x1 (no bias) -> BN -> ReLU -> global average pool -> Linear.
  torch::Tensor conv5_w = next();
  torch::Tensor bn5_w = next();
  torch::Tensor bn5_b = next();
  torch::Tensor fc_w = next();
  torch::Tensor fc_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = torch::relu(bn(torch::conv2d(h, conv5_w), bn5_w, bn5_b));
  h = torch::adaptive_avg_pool2d(h, {1, 1}).flatten(1);  // [B, CF]
  return F::linear(h, fc_w, fc_b);
}
