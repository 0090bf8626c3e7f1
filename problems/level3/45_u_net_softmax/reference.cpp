// Reference for level3/45 (UNetSoftmax): a U-Net whose double convs (conv3x3 -> BN -> softmax over
// the width, twice) run at four resolutions down (each followed by a 2x2 max pool), a bottleneck,
// and four up (transposed conv 2x2 stride 2, concatenated with the encoder's output), then a
// conv1x1. BatchNorm in training mode (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int kLevels = 4;           // encoders, pools, upconvs and decoders each
constexpr int64_t kPool = 2;         // MaxPool2d(2, 2) and ConvTranspose2d(k2, s2)
constexpr int64_t kSoftmaxDim = -1;  // nn.Softmax(dim=-1): over the width
constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here

// DoubleConv: [Conv2d(k3, p1, bias) -> BatchNorm2d (batch statistics) -> Softmax(dim=-1)] x 2,
// taking its eight parameters from next.
template <class Next>
torch::Tensor double_conv(torch::Tensor h, Next& next) {
  for (int i = 0; i < 2; ++i) {
    torch::Tensor conv_w = next();
    torch::Tensor conv_b = next();
    torch::Tensor bn_w = next();
    torch::Tensor bn_b = next();
    h = torch::conv2d(h, conv_w, conv_b, /*stride=*/1, /*padding=*/1);
    h = torch::batch_norm(h, bn_w, bn_b, /*running_mean=*/{}, /*running_var=*/{},
                          /*training=*/true, kBnMomentum, kBnEps, /*cudnn_enabled=*/false);
    h = torch::softmax(h, kSoftmaxDim);
  }
  return h;
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };

  // Encoders: each level's output is kept for the skip connection, then pooled.
  std::vector<torch::Tensor> skips;
  torch::Tensor h = x;
  for (int level = 0; level < kLevels; ++level) {
    skips.push_back(double_conv(h, next));
    h = torch::max_pool2d(skips.back(), /*kernel_size=*/kPool, /*stride=*/kPool);
  }
  h = double_conv(h, next);  // bottleneck

  // Decoders, deepest first: upsample (transposed conv, bias), concatenate [up, skip], DoubleConv.
  for (int level = kLevels - 1; level >= 0; --level) {
    torch::Tensor up_w = next();
    torch::Tensor up_b = next();
    h = torch::conv_transpose2d(h, up_w, up_b, /*stride=*/kPool);
    h = double_conv(torch::cat({h, skips[level]}, /*dim=*/1), next);
  }

  // Final conv1x1 with bias.
  torch::Tensor final_w = next();
  torch::Tensor final_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  return torch::conv2d(h, final_w, final_b);
}
