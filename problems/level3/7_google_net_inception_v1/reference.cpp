// Reference for level3/7 (GoogleNetInceptionV1): conv7x7 stride 2 -> ReLU -> max pool -> conv1x1
// -> ReLU -> conv3x3 -> ReLU -> max pool, then 2, 5 and 2 inception modules (no activations) with
// a stride-2 max pool between stages, a global average pool and a Linear layer (Dropout p=0 is
// the identity).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int kModulesPerStage[] = {2, 5, 2};  // 3a-3b, 4a-4e, 5a-5b
constexpr int64_t kPoolKernel = 3;             // every MaxPool2d is 3x3 with padding 1
constexpr int64_t kPoolPadding = 1;
constexpr int64_t kDownsampleStride = 2;  // conv1 and the pools between stages
constexpr int64_t kConv1Padding = 3;      // conv1 is 7x7
constexpr int64_t kConv3Padding = 1;      // conv3 and the inception 3x3 are 3x3
constexpr int64_t kConv5Padding = 2;      // the inception 5x5

torch::Tensor downsample_pool(const torch::Tensor& x) {
  return torch::max_pool2d(x, kPoolKernel, kDownsampleStride, kPoolPadding);
}

// One inception module: four branches concatenated along channels, no activations. Takes its
// twelve tensors (weight, bias of six convs) from `next`, in order.
template <typename Next>
torch::Tensor inception(const torch::Tensor& x, Next& next) {
  torch::Tensor b1_w = next();
  torch::Tensor b1_b = next();
  torch::Tensor reduce3_w = next();
  torch::Tensor reduce3_b = next();
  torch::Tensor conv3_w = next();
  torch::Tensor conv3_b = next();
  torch::Tensor reduce5_w = next();
  torch::Tensor reduce5_b = next();
  torch::Tensor conv5_w = next();
  torch::Tensor conv5_b = next();
  torch::Tensor pool_w = next();
  torch::Tensor pool_b = next();
  // 1x1 conv.
  torch::Tensor b1 = torch::conv2d(x, b1_w, b1_b);
  // 1x1 reduction -> 3x3 conv (pad 1).
  torch::Tensor b3 = torch::conv2d(torch::conv2d(x, reduce3_w, reduce3_b), conv3_w, conv3_b,
                                   /*stride=*/1, kConv3Padding);
  // 1x1 reduction -> 5x5 conv (pad 2).
  torch::Tensor b5 = torch::conv2d(torch::conv2d(x, reduce5_w, reduce5_b), conv5_w, conv5_b,
                                   /*stride=*/1, kConv5Padding);
  // 3x3 max pool (stride 1, pad 1) -> 1x1 conv.
  torch::Tensor pooled = torch::max_pool2d(x, kPoolKernel, /*stride=*/1, kPoolPadding);
  torch::Tensor bp = torch::conv2d(pooled, pool_w, pool_b);
  return torch::cat({b1, b3, b5, bp}, /*dim=*/1);
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };

  // Stem: conv7x7 (stride 2, pad 3) -> ReLU -> max pool -> conv1x1 -> ReLU -> conv3x3 (pad 1)
  // -> ReLU -> max pool.
  torch::Tensor conv1_w = next();
  torch::Tensor conv1_b = next();
  torch::Tensor conv2_w = next();
  torch::Tensor conv2_b = next();
  torch::Tensor conv3_w = next();
  torch::Tensor conv3_b = next();
  torch::Tensor h = torch::conv2d(x, conv1_w, conv1_b, kDownsampleStride, kConv1Padding);
  h = downsample_pool(torch::relu(h));
  h = torch::relu(torch::conv2d(h, conv2_w, conv2_b));
  h = torch::relu(torch::conv2d(h, conv3_w, conv3_b, /*stride=*/1, kConv3Padding));
  h = downsample_pool(h);

  // Stages 3, 4 and 5, with a max pool between stages.
  bool first_stage = true;
  for (int modules : kModulesPerStage) {
    if (!first_stage) h = downsample_pool(h);
    first_stage = false;
    for (int m = 0; m < modules; ++m) h = inception(h, next);
  }

  // Head: global average pool -> flatten -> Linear.
  torch::Tensor fc_w = next();
  torch::Tensor fc_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = torch::adaptive_avg_pool2d(h, {1, 1}).flatten(1);  // [B, 1024]
  return F::linear(h, fc_w, fc_b);
}
