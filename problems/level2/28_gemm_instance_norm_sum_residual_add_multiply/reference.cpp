// Reference for level2/28 (BMM + InstanceNorm + sum + residual add + multiply):
// z = linear(x, w, b) viewed as [B, 1, 1, OUT]; instance_norm (no affine, eps 1e-5), which
// normalises each row over its OUT features; back to [B, OUT]; out = (z + y) * y.
#include <torch/torch.h>

constexpr double kEps = 1e-5;      // nn.InstanceNorm2d default
constexpr double kMomentum = 0.1;  // unused: no running stats

torch::Tensor forward(torch::Tensor x, torch::Tensor y, torch::Tensor weight,
                      torch::Tensor bias) {
  torch::Tensor z = torch::nn::functional::linear(x, weight, bias);  // [B, OUT]
  z = z.unsqueeze(1).unsqueeze(1);                                   // [B, 1, 1, OUT]
  // nn.InstanceNorm2d(OUT) on a 1-channel input: affine=False, so the channel-count mismatch
  // is harmless, and the statistics of each (sample, channel) plane = each row are used.
  z = torch::instance_norm(z, /*weight=*/{}, /*bias=*/{}, /*running_mean=*/{},
                           /*running_var=*/{}, /*use_input_stats=*/true, kMomentum, kEps,
                           /*cudnn_enabled=*/true);
  z = z.squeeze(1).squeeze(1);  // [B, OUT]
  z = z + y;
  return z * y;
}
