// Reference for level3/3 (DeepNarrowMLP): 17 x Linear with ReLU after all but the last,
// 8192 -> 1024 (x16) -> 8192 at full size.
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int kLayers = 17;

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor h = x;
  for (int i = 0; i < kLayers; ++i) {
    torch::Tensor w = next();
    torch::Tensor b = next();
    h = F::linear(h, w, b);
    if (i + 1 < kLayers) h = torch::relu(h);
  }
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  return h;
}
