// Reference for level2/79 (Conv3d + multiply + InstanceNorm + clamp + multiply + channel max):
// max over dim 1 of clamp(instance_norm(conv3d(x) * multiplier), -1, 1) * multiplier, with a
// 3x3x3 kernel (stride 1, no padding) and a non-affine InstanceNorm3d (eps 1e-5).
#include <torch/torch.h>

constexpr int64_t kStride[3] = {1, 1, 1};
constexpr int64_t kPadding[3] = {0, 0, 0};
constexpr double kEps = 1e-5;      // nn.InstanceNorm3d default
constexpr double kMomentum = 0.1;  // unused: no running stats are tracked
constexpr double kClampMin = -1.0;
constexpr double kClampMax = 1.0;

torch::Tensor forward(torch::Tensor x, torch::Tensor conv_weight, torch::Tensor conv_bias,
                      torch::Tensor multiplier) {
  torch::Tensor z = torch::conv3d(x, conv_weight, conv_bias, kStride, kPadding);
  z = z * multiplier;
  z = torch::instance_norm(z, /*weight=*/{}, /*bias=*/{}, /*running_mean=*/{},
                           /*running_var=*/{}, /*use_input_stats=*/true, kMomentum, kEps,
                           /*cudnn_enabled=*/true);
  z = torch::clamp(z, kClampMin, kClampMax) * multiplier;
  return std::get<0>(torch::max(z, /*dim=*/1));
}
