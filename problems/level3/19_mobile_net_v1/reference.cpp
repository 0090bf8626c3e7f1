// Reference for level3/19 (MobileNetV1): conv3x3 stride 2 -> BN -> ReLU, 13 depthwise-separable
// blocks (depthwise conv3x3 -> BN -> ReLU -> pointwise conv1x1 -> BN -> ReLU), then a 7x7 average
// pool and a Linear layer. BatchNorm in training mode (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

// The depthwise conv's stride in each of the 13 blocks; widths come from the weights.
constexpr int64_t kBlockStrides[] = {1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1};
constexpr int64_t kStemStride = 2;
constexpr int64_t kPoolKernel = 7;   // AvgPool2d(7): kernel and stride 7
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

  // Stem: conv3x3 (stride 2, pad 1, no bias) -> BN -> ReLU.
  torch::Tensor stem_w = next();
  torch::Tensor stem_bn_w = next();
  torch::Tensor stem_bn_b = next();
  torch::Tensor h = torch::conv2d(x, stem_w, /*bias=*/{}, kStemStride, /*padding=*/1);
  h = bn_relu(h, stem_bn_w, stem_bn_b);

  for (int64_t stride : kBlockStrides) {
    torch::Tensor dw_w = next();
    torch::Tensor dw_bn_w = next();
    torch::Tensor dw_bn_b = next();
    torch::Tensor pw_w = next();
    torch::Tensor pw_bn_w = next();
    torch::Tensor pw_bn_b = next();
    // Depthwise conv3x3 (pad 1, one group per channel, no bias) -> BN -> ReLU.
    const int64_t channels = h.size(1);
    h = torch::conv2d(h, dw_w, /*bias=*/{}, stride, /*padding=*/1, /*dilation=*/1,
                      /*groups=*/channels);
    h = bn_relu(h, dw_bn_w, dw_bn_b);
    // Pointwise conv1x1 (no bias) -> BN -> ReLU.
    h = bn_relu(torch::conv2d(h, pw_w), pw_bn_w, pw_bn_b);
  }

  // Head: AvgPool2d(7) (a 7x7 map becomes 1x1) -> flatten -> Linear.
  torch::Tensor fc_w = next();
  torch::Tensor fc_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = torch::avg_pool2d(h, kPoolKernel, /*stride=*/kPoolKernel);
  h = h.view({h.size(0), -1});  // [B, 32C]
  return F::linear(h, fc_w, fc_b);
}
