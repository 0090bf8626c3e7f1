// Reference for level3/21 (EfficientNetMBConv): conv1x1 expand (x6) -> BN -> ReLU6 ->
// depthwise conv5x5 stride 2 -> BN -> ReLU6 -> conv1x1 project -> BN. No SE, no residual.
// BatchNorm in training mode (batch statistics).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int64_t kKernel = 5;
constexpr int64_t kStride = 2;
constexpr int64_t kPadding = (kKernel - 1) / 2;
constexpr double kBnEps = 1e-5;      // nn.BatchNorm2d default
constexpr double kBnMomentum = 0.1;  // only moves running stats, which are not kept here

torch::Tensor bn(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) {
  return torch::batch_norm(x, w, b, /*running_mean=*/{}, /*running_var=*/{}, /*training=*/true,
                           kBnMomentum, kBnEps, /*cudnn_enabled=*/false);
}

// nn.ReLU6 is Hardtanh(0, 6).
torch::Tensor clamp06(const torch::Tensor& x) { return torch::hardtanh(x, 0.0, 6.0); }

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor expand_w = next();
  torch::Tensor bn1_w = next();
  torch::Tensor bn1_b = next();
  torch::Tensor dw_w = next();
  torch::Tensor bn2_w = next();
  torch::Tensor bn2_b = next();
  torch::Tensor project_w = next();
  torch::Tensor bn3_w = next();
  torch::Tensor bn3_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  torch::Tensor h = clamp06(bn(torch::conv2d(x, expand_w), bn1_w, bn1_b));
  const int64_t channels = h.size(1);
  h = torch::conv2d(h, dw_w, /*bias=*/{}, kStride, kPadding, /*dilation=*/1,
                    /*groups=*/channels);  // depthwise
  h = clamp06(bn(h, bn2_w, bn2_b));
  return bn(torch::conv2d(h, project_w), bn3_w, bn3_b);
}
