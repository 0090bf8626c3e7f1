// Reference for level3/4 (LeNet-5): two 5x5 convs (1->6->16), each with ReLU and 2x2 max
// pooling, then three Linear layers 400 -> 120 -> 84 -> NC with ReLU between.
#include <torch/torch.h>

#include <vector>

constexpr int64_t kPool = 2;  // MaxPool2d(kernel 2, stride 2)

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor conv1_w = next();
  torch::Tensor conv1_b = next();
  torch::Tensor conv2_w = next();
  torch::Tensor conv2_b = next();
  torch::Tensor fc1_w = next();
  torch::Tensor fc1_b = next();
  torch::Tensor fc2_w = next();
  torch::Tensor fc2_b = next();
  torch::Tensor fc3_w = next();
  torch::Tensor fc3_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  // Convs: stride 1, no padding.
  torch::Tensor h = torch::relu(torch::conv2d(x, conv1_w, conv1_b));  // [B, 6, 28, 28]
  h = torch::max_pool2d(h, kPool, kPool);                             // [B, 6, 14, 14]
  h = torch::relu(torch::conv2d(h, conv2_w, conv2_b));                // [B, 16, 10, 10]
  h = torch::max_pool2d(h, kPool, kPool);                             // [B, 16, 5, 5]
  h = h.flatten(1);  // [B, 16*5*5]
  h = torch::relu(F::linear(h, fc1_w, fc1_b));
  h = torch::relu(F::linear(h, fc2_w, fc2_b));
  return F::linear(h, fc3_w, fc3_b);
}
