// Reference for level3/4 (LeNet-5): two 5x5 convs (1->6->16), each with ReLU and 2x2 max
// pooling, then three Linear layers 400 -> 120 -> 84 -> NC with ReLU between.
#include <torch/torch.h>

constexpr int64_t kPool = 2;  // MaxPool2d(kernel 2, stride 2)

torch::Tensor forward(torch::Tensor x, torch::Tensor conv1_w, torch::Tensor conv1_b,
                      torch::Tensor conv2_w, torch::Tensor conv2_b, torch::Tensor fc1_w,
                      torch::Tensor fc1_b, torch::Tensor fc2_w, torch::Tensor fc2_b,
                      torch::Tensor fc3_w, torch::Tensor fc3_b) {
  namespace F = torch::nn::functional;
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
