// Reference for level3/9 (ResNet18): conv7x7 stride 2 -> BN -> ReLU -> max pool 3x3 stride 2,
// four stages of two BasicBlocks (conv3x3 -> BN -> ReLU -> conv3x3 -> BN, plus the input or a
// conv1x1 -> BN shortcut, added, then ReLU), a global average pool and a Linear layer.
// BatchNorm in training mode (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int64_t kStages = 4;
constexpr int64_t kBlocksPerStage = 2;
constexpr int64_t kStemStride = 2;
constexpr int64_t kStemPadding = 3;  // the 7x7 stem conv
constexpr int64_t kPoolKernel = 3;
constexpr int64_t kPoolStride = 2;
constexpr int64_t kPoolPadding = 1;
constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here

// BatchNorm2d in training mode: per-channel batch mean and biased variance, no running buffers.
torch::Tensor bn(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) {
  return torch::batch_norm(x, w, b, /*running_mean=*/{}, /*running_var=*/{}, /*training=*/true,
                           kBnMomentum, kBnEps, /*cudnn_enabled=*/false);
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };

  // Stem: conv7x7 (stride 2, pad 3, no bias) -> BN -> ReLU -> max pool 3x3 (stride 2, pad 1).
  torch::Tensor stem_w = next();
  torch::Tensor stem_bn_w = next();
  torch::Tensor stem_bn_b = next();
  torch::Tensor h = torch::conv2d(x, stem_w, /*bias=*/{}, kStemStride, kStemPadding);
  h = torch::relu(bn(h, stem_bn_w, stem_bn_b));
  h = torch::max_pool2d(h, kPoolKernel, kPoolStride, kPoolPadding);

  // BasicBlocks; the first block of stages 2-4 halves the resolution and doubles the width.
  for (int64_t s = 0; s < kStages; ++s) {
    for (int64_t b = 0; b < kBlocksPerStage; ++b) {
      const int64_t stride = s > 0 && b == 0 ? 2 : 1;
      torch::Tensor conv1_w = next();
      torch::Tensor bn1_w = next();
      torch::Tensor bn1_b = next();
      torch::Tensor conv2_w = next();
      torch::Tensor bn2_w = next();
      torch::Tensor bn2_b = next();
      // conv3x3 (stride, pad 1) -> BN -> ReLU -> conv3x3 (pad 1) -> BN; no conv has a bias.
      torch::Tensor out = torch::conv2d(h, conv1_w, /*bias=*/{}, stride, /*padding=*/1);
      out = torch::relu(bn(out, bn1_w, bn1_b));
      out = bn(torch::conv2d(out, conv2_w, /*bias=*/{}, /*stride=*/1, /*padding=*/1), bn2_w, bn2_b);
      // Shortcut: the input itself, or conv1x1 (stride) -> BN where the shape changes.
      torch::Tensor identity = h;
      if (stride != 1 || h.size(1) != conv1_w.size(0)) {
        torch::Tensor down_w = next();
        torch::Tensor down_bn_w = next();
        torch::Tensor down_bn_b = next();
        identity = bn(torch::conv2d(h, down_w, /*bias=*/{}, stride), down_bn_w, down_bn_b);
      }
      h = torch::relu(out + identity);
    }
  }

  // Global average pool -> flatten -> Linear.
  torch::Tensor fc_w = next();
  torch::Tensor fc_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = torch::adaptive_avg_pool2d(h, {1, 1}).flatten(1);  // [B, 512]
  return F::linear(h, fc_w, fc_b);
}
