// Reference for level3/18 (SqueezeNet v1.0): conv7x7 stride 2 -> ReLU, then three groups of Fire
// modules (3, 4 and 1), each group after a ceil-mode 3x3 max pool with stride 2, then a conv1x1
// classifier -> ReLU -> global average pool (Dropout p=0 is the identity).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int kFiresAfterPool[] = {3, 4, 1};  // Fires 1-3, 4-7, 8
constexpr int64_t kStemStride = 2;            // the 7x7 stem has no padding
constexpr int64_t kPoolKernel = 3;            // MaxPool2d(3, stride 2, ceil_mode=True)
constexpr int64_t kPoolStride = 2;
constexpr int64_t kExpand3Padding = 1;

torch::Tensor ceil_pool(const torch::Tensor& x) {
  return torch::max_pool2d(x, kPoolKernel, kPoolStride, /*padding=*/0, /*dilation=*/1,
                           /*ceil_mode=*/true);
}

// One Fire module: squeeze conv1x1 -> ReLU, then conv1x1 -> ReLU and conv3x3 (pad 1) -> ReLU,
// concatenated along channels. Takes its six tensors (weight, bias of three convs) from `next`.
template <typename Next>
torch::Tensor fire(const torch::Tensor& x, Next& next) {
  torch::Tensor squeeze_w = next();
  torch::Tensor squeeze_b = next();
  torch::Tensor expand1_w = next();
  torch::Tensor expand1_b = next();
  torch::Tensor expand3_w = next();
  torch::Tensor expand3_b = next();
  torch::Tensor s = torch::relu(torch::conv2d(x, squeeze_w, squeeze_b));
  torch::Tensor e1 = torch::relu(torch::conv2d(s, expand1_w, expand1_b));
  torch::Tensor e3 =
      torch::relu(torch::conv2d(s, expand3_w, expand3_b, /*stride=*/1, kExpand3Padding));
  return torch::cat({e1, e3}, /*dim=*/1);
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };

  // Stem: conv7x7 (stride 2, no padding) -> ReLU.
  torch::Tensor stem_w = next();
  torch::Tensor stem_b = next();
  torch::Tensor h = torch::relu(torch::conv2d(x, stem_w, stem_b, kStemStride));

  // Each group of Fire modules follows a ceil-mode max pool.
  for (int fires : kFiresAfterPool) {
    h = ceil_pool(h);
    for (int f = 0; f < fires; ++f) h = fire(h, next);
  }

  // Classifier: conv1x1 -> ReLU -> global average pool -> flatten.
  torch::Tensor classifier_w = next();
  torch::Tensor classifier_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = torch::relu(torch::conv2d(h, classifier_w, classifier_b));
  return torch::adaptive_avg_pool2d(h, {1, 1}).flatten(1);  // [B, NC]
}
