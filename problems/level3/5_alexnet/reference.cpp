// Reference for level3/5 (AlexNet): five convs with ReLU (max pooling after the 1st, 2nd and
// 5th), then Linear 9216 -> 4096 -> 4096 -> 1000 with ReLU between (Dropout p=0 is identity).
#include <torch/torch.h>

#include <vector>

namespace {

constexpr int64_t kPoolKernel = 3;  // MaxPool2d(kernel_size=3, stride=2), no padding
constexpr int64_t kPoolStride = 2;

torch::Tensor conv_relu(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b,
                        int64_t stride, int64_t padding) {
  return torch::relu(torch::conv2d(x, w, b, stride, padding));
}

torch::Tensor pool(const torch::Tensor& x) {
  return torch::max_pool2d(x, kPoolKernel, kPoolStride);
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor conv1_w = next();
  torch::Tensor conv1_b = next();
  torch::Tensor conv2_w = next();
  torch::Tensor conv2_b = next();
  torch::Tensor conv3_w = next();
  torch::Tensor conv3_b = next();
  torch::Tensor conv4_w = next();
  torch::Tensor conv4_b = next();
  torch::Tensor conv5_w = next();
  torch::Tensor conv5_b = next();
  torch::Tensor fc1_w = next();
  torch::Tensor fc1_b = next();
  torch::Tensor fc2_w = next();
  torch::Tensor fc2_b = next();
  torch::Tensor fc3_w = next();
  torch::Tensor fc3_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  torch::Tensor h = pool(conv_relu(x, conv1_w, conv1_b, /*stride=*/4, /*padding=*/2));  // 55 -> 27
  h = pool(conv_relu(h, conv2_w, conv2_b, 1, 2));                                     // 27 -> 13
  h = conv_relu(h, conv3_w, conv3_b, 1, 1);
  h = conv_relu(h, conv4_w, conv4_b, 1, 1);
  h = pool(conv_relu(h, conv5_w, conv5_b, 1, 1));  // 13 -> 6
  h = h.flatten(1);                                // [B, 256*6*6]
  h = torch::relu(F::linear(h, fc1_w, fc1_b));
  h = torch::relu(F::linear(h, fc2_w, fc2_b));
  return F::linear(h, fc3_w, fc3_b);
}
