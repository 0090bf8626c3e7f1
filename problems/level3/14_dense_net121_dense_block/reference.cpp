// Reference for level3/14 (DenseNet121DenseBlock): six layers of BatchNorm2d (training mode,
// batch statistics) -> ReLU -> conv3x3 without bias (growth G channels), each taking the
// concatenation of the input and every earlier layer's output; returns the final concatenation.
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int kLayers = 6;
constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  std::vector<torch::Tensor> features = {x};
  torch::Tensor h = x;
  for (int i = 0; i < kLayers; ++i) {
    torch::Tensor bn_w = next();
    torch::Tensor bn_b = next();
    torch::Tensor conv_w = next();
    torch::Tensor y = torch::batch_norm(h, bn_w, bn_b, /*running_mean=*/{},
                                        /*running_var=*/{}, /*training=*/true, kBnMomentum,
                                        kBnEps, /*cudnn_enabled=*/false);
    y = torch::conv2d(torch::relu(y), conv_w, /*bias=*/{}, /*stride=*/1, /*padding=*/1);
    features.push_back(y);
    h = torch::cat(features, /*dim=*/1);
  }
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  return h;
}
