// Reference for level3/22 (EfficientNetB0): conv3x3 stride 2 -> BN -> ReLU, 13 MBConv blocks
// (conv1x1 expand -> BN -> ReLU6, depthwise conv -> BN -> ReLU6, conv1x1 project -> BN, plus the
// block's input where stride and width allow), then conv1x1 -> BN -> ReLU, a global average pool
// and a Linear layer. No squeeze-and-excitation. BatchNorm in training mode (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

// One MBConv block: input and output widths, depthwise kernel, stride and expansion ratio.
struct Block {
  int64_t in, out, kernel, stride, expand;
};
constexpr Block kBlocks[] = {
    {32, 16, 3, 1, 1},   {16, 24, 3, 2, 6},   {24, 24, 3, 1, 6},   {24, 40, 5, 2, 6},
    {40, 40, 5, 1, 6},   {40, 80, 3, 2, 6},   {80, 80, 3, 1, 6},   {80, 112, 5, 1, 6},
    {112, 112, 5, 1, 6}, {112, 192, 5, 2, 6}, {192, 192, 5, 1, 6}, {192, 192, 5, 1, 6},
    {192, 320, 3, 1, 6}};
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

  // Stem: conv3x3 (stride 2, pad 1, no bias) -> BN -> ReLU.
  torch::Tensor stem_w = next();
  torch::Tensor stem_bn_w = next();
  torch::Tensor stem_bn_b = next();
  torch::Tensor h = torch::conv2d(x, stem_w, /*bias=*/{}, kStemStride, /*padding=*/1);
  h = torch::relu(bn(h, stem_bn_w, stem_bn_b));

  for (const Block& block : kBlocks) {
    const torch::Tensor identity = h;
    // Expand: conv1x1 (no bias) -> BN -> ReLU6; absent when the ratio is 1.
    if (block.expand != 1) {
      torch::Tensor expand_w = next();
      torch::Tensor expand_bn_w = next();
      torch::Tensor expand_bn_b = next();
      h = torch::relu6(bn(torch::conv2d(h, expand_w), expand_bn_w, expand_bn_b));
    }
    // Depthwise conv k x k (pad (k-1)/2, one group per channel, no bias) -> BN -> ReLU6.
    torch::Tensor dw_w = next();
    torch::Tensor dw_bn_w = next();
    torch::Tensor dw_bn_b = next();
    const int64_t hidden = block.in * block.expand;
    TORCH_CHECK(h.size(1) == hidden, "depthwise conv sees ", h.size(1), " channels, expected ",
                hidden);
    h = torch::conv2d(h, dw_w, /*bias=*/{}, block.stride, /*padding=*/(block.kernel - 1) / 2,
                      /*dilation=*/1, /*groups=*/hidden);
    h = torch::relu6(bn(h, dw_bn_w, dw_bn_b));
    // Project: conv1x1 (no bias) -> BN, no activation; then the residual add where the block
    // keeps both the resolution and the width.
    torch::Tensor project_w = next();
    torch::Tensor project_bn_w = next();
    torch::Tensor project_bn_b = next();
    h = bn(torch::conv2d(h, project_w), project_bn_w, project_bn_b);
    if (block.stride == 1 && block.in == block.out) h = h + identity;
  }

  // Last conv1x1 (no bias) -> BN -> ReLU, global average pool, Linear.
  torch::Tensor last_w = next();
  torch::Tensor last_bn_w = next();
  torch::Tensor last_bn_b = next();
  torch::Tensor fc_w = next();
  torch::Tensor fc_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = torch::relu(bn(torch::conv2d(h, last_w), last_bn_w, last_bn_b));
  h = torch::adaptive_avg_pool2d(h, {1, 1}).flatten(1);  // [B, 1280]
  return F::linear(h, fc_w, fc_b);
}
