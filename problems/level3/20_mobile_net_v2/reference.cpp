// Reference for level3/20 (MobileNetV2): conv3x3 stride 2 -> BN -> ReLU6, 17 inverted-residual
// blocks (conv1x1 expand -> BN -> ReLU6, depthwise conv3x3 -> BN -> ReLU6, conv1x1 project -> BN)
// WITHOUT the residual adds, as KernelBench has them, then conv1x1 -> BN -> ReLU6, a global
// average pool and a Linear layer. BatchNorm in training mode (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

// A stage of blocks: expansion t, output channels c, n blocks, the first at stride s.
struct Stage {
  int64_t t, c, n, s;
};
constexpr Stage kStages[] = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 32, 3, 2},  {6, 64, 4, 2},
                             {6, 96, 3, 1},  {6, 160, 3, 2}, {6, 320, 1, 1}};
constexpr int64_t kStemStride = 2;
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

  // Stem: conv3x3 (stride 2, pad 1, no bias) -> BN -> ReLU6.
  torch::Tensor stem_w = next();
  torch::Tensor stem_bn_w = next();
  torch::Tensor stem_bn_b = next();
  torch::Tensor h = torch::conv2d(x, stem_w, /*bias=*/{}, kStemStride, /*padding=*/1);
  h = torch::relu6(bn(h, stem_bn_w, stem_bn_b));

  for (const Stage& stage : kStages) {
    for (int64_t i = 0; i < stage.n; ++i) {
      const int64_t stride = i == 0 ? stage.s : 1;
      // Expand: conv1x1 (no bias) -> BN -> ReLU6; absent when t = 1.
      if (stage.t != 1) {
        torch::Tensor expand_w = next();
        torch::Tensor expand_bn_w = next();
        torch::Tensor expand_bn_b = next();
        h = torch::relu6(bn(torch::conv2d(h, expand_w), expand_bn_w, expand_bn_b));
      }
      // Depthwise conv3x3 (pad 1, one group per channel, no bias) -> BN -> ReLU6.
      torch::Tensor dw_w = next();
      torch::Tensor dw_bn_w = next();
      torch::Tensor dw_bn_b = next();
      const int64_t hidden = h.size(1);
      h = torch::conv2d(h, dw_w, /*bias=*/{}, stride, /*padding=*/1, /*dilation=*/1,
                        /*groups=*/hidden);
      h = torch::relu6(bn(h, dw_bn_w, dw_bn_b));
      // Project: conv1x1 (no bias) -> BN, no activation. No residual add, even where the
      // block's input and output shapes match.
      torch::Tensor project_w = next();
      torch::Tensor project_bn_w = next();
      torch::Tensor project_bn_b = next();
      TORCH_CHECK(project_w.size(0) == stage.c, "block projects to ", project_w.size(0),
                  " channels, expected ", stage.c);
      h = bn(torch::conv2d(h, project_w), project_bn_w, project_bn_b);
    }
  }

  // Last conv1x1 (no bias) -> BN -> ReLU6, global average pool, Dropout(0) (the identity),
  // Linear.
  torch::Tensor last_w = next();
  torch::Tensor last_bn_w = next();
  torch::Tensor last_bn_b = next();
  torch::Tensor fc_w = next();
  torch::Tensor fc_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = torch::relu6(bn(torch::conv2d(h, last_w), last_bn_w, last_bn_b));
  h = torch::adaptive_avg_pool2d(h, {1, 1}).flatten(1);  // [B, 1280]
  return F::linear(h, fc_w, fc_b);
}
