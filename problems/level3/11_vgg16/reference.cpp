// Reference for level3/11 (VGG16): 13 conv3x3 + ReLU layers in five blocks (2, 2, 3, 3, 3 convs),
// each block ending in a 2x2 max pool, then Linear 512*7*7 -> 4096 -> 4096 -> 1000 with ReLU
// between (Dropout p=0 is identity).
#include <torch/torch.h>

namespace {

constexpr int kConvsPerBlock[5] = {2, 2, 3, 3, 3};

}  // namespace

torch::Tensor forward(torch::Tensor x, torch::Tensor conv1_w, torch::Tensor conv1_b,
                      torch::Tensor conv2_w, torch::Tensor conv2_b, torch::Tensor conv3_w,
                      torch::Tensor conv3_b, torch::Tensor conv4_w, torch::Tensor conv4_b,
                      torch::Tensor conv5_w, torch::Tensor conv5_b, torch::Tensor conv6_w,
                      torch::Tensor conv6_b, torch::Tensor conv7_w, torch::Tensor conv7_b,
                      torch::Tensor conv8_w, torch::Tensor conv8_b, torch::Tensor conv9_w,
                      torch::Tensor conv9_b, torch::Tensor conv10_w, torch::Tensor conv10_b,
                      torch::Tensor conv11_w, torch::Tensor conv11_b, torch::Tensor conv12_w,
                      torch::Tensor conv12_b, torch::Tensor conv13_w, torch::Tensor conv13_b,
                      torch::Tensor fc1_w, torch::Tensor fc1_b, torch::Tensor fc2_w,
                      torch::Tensor fc2_b, torch::Tensor fc3_w, torch::Tensor fc3_b) {
  namespace F = torch::nn::functional;
  const torch::Tensor conv_w[] = {conv1_w, conv2_w, conv3_w, conv4_w, conv5_w, conv6_w, conv7_w,
                                 conv8_w, conv9_w, conv10_w, conv11_w, conv12_w, conv13_w};
  const torch::Tensor conv_b[] = {conv1_b, conv2_b, conv3_b, conv4_b, conv5_b, conv6_b, conv7_b,
                                 conv8_b, conv9_b, conv10_b, conv11_b, conv12_b, conv13_b};
  torch::Tensor h = x;
  int layer = 0;
  for (int convs : kConvsPerBlock) {
    for (int i = 0; i < convs; ++i, ++layer)
      h = torch::relu(torch::conv2d(h, conv_w[layer], conv_b[layer], /*stride=*/1, /*padding=*/1));
    h = torch::max_pool2d(h, /*kernel_size=*/2, /*stride=*/2);
  }
  h = h.flatten(1);  // [B, 512 * H/32 * W/32]
  h = torch::relu(F::linear(h, fc1_w, fc1_b));
  h = torch::relu(F::linear(h, fc2_w, fc2_b));
  return F::linear(h, fc3_w, fc3_b);
}
