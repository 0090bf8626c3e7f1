// Reference for level3/13 (DenseNet121TransitionLayer): BatchNorm2d (training mode, batch
// statistics) -> ReLU -> conv1x1 without bias -> AvgPool2d(2, 2).
#include <torch/torch.h>

#include <vector>

constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here
constexpr int64_t kPool = 2;         // AvgPool2d(kernel_size=2, stride=2)

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor bn_w = next();
  torch::Tensor bn_b = next();
  torch::Tensor conv_w = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  torch::Tensor h = torch::batch_norm(x, bn_w, bn_b, /*running_mean=*/{}, /*running_var=*/{},
                                      /*training=*/true, kBnMomentum, kBnEps,
                                      /*cudnn_enabled=*/false);
  h = torch::conv2d(torch::relu(h), conv_w);
  return torch::avg_pool2d(h, kPool, kPool);
}
