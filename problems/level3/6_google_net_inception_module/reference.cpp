// Reference for level3/6 (GoogleNetInceptionModule): four branches (1x1 conv; 1x1 -> 3x3 conv;
// 1x1 -> 5x5 conv; 3x3 max pool -> 1x1 conv), concatenated along channels. No activations.
#include <torch/torch.h>

#include <vector>

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor branch1_w = next();
  torch::Tensor branch1_b = next();
  torch::Tensor reduce3_w = next();
  torch::Tensor reduce3_b = next();
  torch::Tensor conv3_w = next();
  torch::Tensor conv3_b = next();
  torch::Tensor reduce5_w = next();
  torch::Tensor reduce5_b = next();
  torch::Tensor conv5_w = next();
  torch::Tensor conv5_b = next();
  torch::Tensor pool_proj_w = next();
  torch::Tensor pool_proj_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  // All convs stride 1; padding keeps H x W.
  torch::Tensor b1 = torch::conv2d(x, branch1_w, branch1_b);
  torch::Tensor b3 = torch::conv2d(torch::conv2d(x, reduce3_w, reduce3_b), conv3_w, conv3_b,
                                   /*stride=*/1, /*padding=*/1);
  torch::Tensor b5 = torch::conv2d(torch::conv2d(x, reduce5_w, reduce5_b), conv5_w, conv5_b,
                                   /*stride=*/1, /*padding=*/2);
  torch::Tensor pooled = torch::max_pool2d(x, /*kernel_size=*/3, /*stride=*/1, /*padding=*/1);
  torch::Tensor bp = torch::conv2d(pooled, pool_proj_w, pool_proj_b);
  return torch::cat({b1, b3, b5, bp}, /*dim=*/1);
}
