// Reference for level3/24 (EfficientNetB2): conv3x3 stride 2 -> BN -> ReLU, 5 blocks (conv1x1
// expand -> BN -> ReLU, depthwise conv3x3 -> BN -> ReLU, then a squeeze-and-excitation gate
// applied in sequence: global average pool -> conv1x1 -> ReLU -> conv1x1 -> Sigmoid, whose
// output REPLACES the feature map, then conv1x1 project -> BN), then conv1x1 -> BN -> ReLU, a
// global average pool and a Linear layer. From block 1's gate on every map is 1x1.
// BatchNorm in training mode (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

// The depthwise conv's stride in each of the 5 blocks; widths come from the weights.
constexpr int64_t kBlockStrides[] = {1, 2, 2, 2, 1};
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

  for (int64_t stride : kBlockStrides) {
    torch::Tensor expand_w = next();
    torch::Tensor expand_bn_w = next();
    torch::Tensor expand_bn_b = next();
    torch::Tensor dw_w = next();
    torch::Tensor dw_bn_w = next();
    torch::Tensor dw_bn_b = next();
    torch::Tensor squeeze_w = next();
    torch::Tensor excite_w = next();
    torch::Tensor project_w = next();
    torch::Tensor project_bn_w = next();
    torch::Tensor project_bn_b = next();
    // Expand: conv1x1 (no bias) -> BN -> ReLU.
    h = torch::relu(bn(torch::conv2d(h, expand_w), expand_bn_w, expand_bn_b));
    // Depthwise conv3x3 (pad 1, one group per channel, no bias) -> BN -> ReLU. On the 1x1 maps
    // of blocks 2-5 the output stays 1x1 and only the centre tap meets data.
    const int64_t hidden = h.size(1);
    h = torch::conv2d(h, dw_w, /*bias=*/{}, stride, /*padding=*/1, /*dilation=*/1,
                      /*groups=*/hidden);
    h = torch::relu(bn(h, dw_bn_w, dw_bn_b));
    // Squeeze-and-excitation as KernelBench sequences it: the gate [B, hidden, 1, 1] becomes
    // the block's feature map instead of scaling it.
    h = torch::adaptive_avg_pool2d(h, {1, 1});
    h = torch::relu(torch::conv2d(h, squeeze_w));
    h = torch::sigmoid(torch::conv2d(h, excite_w));
    // Project: conv1x1 (no bias) -> BN over B values per channel, no activation, no residual.
    h = bn(torch::conv2d(h, project_w), project_bn_w, project_bn_b);
  }

  // Last conv1x1 (no bias) -> BN -> ReLU, global average pool (of a 1x1 map), Linear.
  torch::Tensor last_w = next();
  torch::Tensor last_bn_w = next();
  torch::Tensor last_bn_b = next();
  torch::Tensor fc_w = next();
  torch::Tensor fc_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = torch::relu(bn(torch::conv2d(h, last_w), last_bn_w, last_bn_b));
  h = torch::adaptive_avg_pool2d(h, {1, 1}).flatten(1);  // [B, 1408]
  return F::linear(h, fc_w, fc_b);
}
