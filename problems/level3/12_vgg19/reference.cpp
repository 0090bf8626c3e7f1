// Reference for level3/12 (VGG19): 16 conv3x3 + ReLU layers in five blocks (2, 2, 4, 4, 4 convs),
// each block ending in a 2x2 max pool, then Linear 512*7*7 -> 4096 -> 4096 -> 1000 with ReLU
// between (Dropout p=0 is identity).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int kConvsPerBlock[5] = {2, 2, 4, 4, 4};

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor h = x;
  for (int convs : kConvsPerBlock) {
    for (int i = 0; i < convs; ++i) {
      torch::Tensor conv_w = next();
      torch::Tensor conv_b = next();
      h = torch::relu(torch::conv2d(h, conv_w, conv_b, /*stride=*/1, /*padding=*/1));
    }
    h = torch::max_pool2d(h, /*kernel_size=*/2, /*stride=*/2);
  }
  torch::Tensor fc1_w = next();
  torch::Tensor fc1_b = next();
  torch::Tensor fc2_w = next();
  torch::Tensor fc2_b = next();
  torch::Tensor fc3_w = next();
  torch::Tensor fc3_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = h.flatten(1);  // [B, 512 * H/32 * W/32]
  h = torch::relu(F::linear(h, fc1_w, fc1_b));
  h = torch::relu(F::linear(h, fc2_w, fc2_b));
  return F::linear(h, fc3_w, fc3_b);
}
