// Reference for level3/16 (DenseNet201): a conv7x7 stem with max pool, four dense blocks of 6,
// 12, 48 and 32 layers (BN -> ReLU -> conv3x3, each output concatenated to the layer's input)
// with BN -> ReLU -> conv1x1 -> avg-pool transitions between them, then BN -> ReLU -> global
// average pool -> Linear. BatchNorm in training mode (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int kBlockLayers[] = {6, 12, 48, 32};
constexpr int kBlocks = sizeof(kBlockLayers) / sizeof(kBlockLayers[0]);
constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here

// BatchNorm2d in training mode (per-channel batch mean and biased variance) -> ReLU.
torch::Tensor bn_relu(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) {
  return torch::relu(torch::batch_norm(x, w, b, /*running_mean=*/{}, /*running_var=*/{},
                                       /*training=*/true, kBnMomentum, kBnEps,
                                       /*cudnn_enabled=*/false));
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
  torch::Tensor h = torch::conv2d(x, stem_w, /*bias=*/{}, /*stride=*/2, /*padding=*/3);
  h = torch::max_pool2d(bn_relu(h, stem_bn_w, stem_bn_b), /*kernel_size=*/3, /*stride=*/2,
                        /*padding=*/1);

  for (int s = 0; s < kBlocks; ++s) {
    // Dense block: each layer's G new channels (BN -> ReLU -> conv3x3 pad 1, no bias; its
    // Dropout(0) is the identity) are concatenated to everything before them.
    std::vector<torch::Tensor> features = {h};
    for (int j = 0; j < kBlockLayers[s]; ++j) {
      torch::Tensor bn_w = next();
      torch::Tensor bn_b = next();
      torch::Tensor conv_w = next();
      features.push_back(torch::conv2d(bn_relu(h, bn_w, bn_b), conv_w, /*bias=*/{},
                                       /*stride=*/1, /*padding=*/1));
      h = torch::cat(features, /*dim=*/1);
    }
    if (s == kBlocks - 1) break;
    // Transition: BN -> ReLU -> conv1x1 halving the channels (no bias) -> avg pool 2x2.
    torch::Tensor bn_w = next();
    torch::Tensor bn_b = next();
    torch::Tensor conv_w = next();
    h = torch::conv2d(bn_relu(h, bn_w, bn_b), conv_w);
    h = torch::avg_pool2d(h, /*kernel_size=*/2, /*stride=*/2);
  }

  // Head: BN -> ReLU -> global average pool -> Linear.
  torch::Tensor bn_w = next();
  torch::Tensor bn_b = next();
  torch::Tensor fc_w = next();
  torch::Tensor fc_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = torch::adaptive_avg_pool2d(bn_relu(h, bn_w, bn_b), {1, 1}).flatten(1);  // [B, CF]
  return F::linear(h, fc_w, fc_b);
}
