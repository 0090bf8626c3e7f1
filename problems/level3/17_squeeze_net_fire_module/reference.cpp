// Reference for level3/17 (SqueezeNetFireModule): squeeze conv1x1 + ReLU, then two expand
// branches (conv1x1 + ReLU, conv3x3 pad 1 + ReLU) concatenated along channels.
#include <torch/torch.h>

#include <vector>

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor squeeze_w = next();
  torch::Tensor squeeze_b = next();
  torch::Tensor expand1_w = next();
  torch::Tensor expand1_b = next();
  torch::Tensor expand3_w = next();
  torch::Tensor expand3_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  torch::Tensor s = torch::relu(torch::conv2d(x, squeeze_w, squeeze_b));
  torch::Tensor e1 = torch::relu(torch::conv2d(s, expand1_w, expand1_b));
  torch::Tensor e3 =
      torch::relu(torch::conv2d(s, expand3_w, expand3_b, /*stride=*/1, /*padding=*/1));
  return torch::cat({e1, e3}, /*dim=*/1);
}
