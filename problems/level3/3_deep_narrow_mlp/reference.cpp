// Reference for level3/3 (DeepNarrowMLP): 17 x Linear with ReLU after all but the last,
// 8192 -> 1024 (x16) -> 8192 at full size.
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor x, torch::Tensor w1, torch::Tensor b1, torch::Tensor w2,
                      torch::Tensor b2, torch::Tensor w3, torch::Tensor b3, torch::Tensor w4,
                      torch::Tensor b4, torch::Tensor w5, torch::Tensor b5, torch::Tensor w6,
                      torch::Tensor b6, torch::Tensor w7, torch::Tensor b7, torch::Tensor w8,
                      torch::Tensor b8, torch::Tensor w9, torch::Tensor b9, torch::Tensor w10,
                      torch::Tensor b10, torch::Tensor w11, torch::Tensor b11, torch::Tensor w12,
                      torch::Tensor b12, torch::Tensor w13, torch::Tensor b13, torch::Tensor w14,
                      torch::Tensor b14, torch::Tensor w15, torch::Tensor b15, torch::Tensor w16,
                      torch::Tensor b16, torch::Tensor w17, torch::Tensor b17) {
  namespace F = torch::nn::functional;
  const torch::Tensor w[] = {w1, w2, w3, w4, w5, w6, w7, w8, w9,
                             w10, w11, w12, w13, w14, w15, w16, w17};
  const torch::Tensor b[] = {b1, b2, b3, b4, b5, b6, b7, b8, b9,
                             b10, b11, b12, b13, b14, b15, b16, b17};
  torch::Tensor h = x;
  for (int i = 0; i < 16; ++i) h = torch::relu(F::linear(h, w[i], b[i]));
  return F::linear(h, w[16], b[16]);
}
