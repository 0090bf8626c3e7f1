// Reference for level1/32 (HardTanh): clamp(x, -1, 1), elementwise.
#include <torch/torch.h>

constexpr double kMinVal = -1.0;
constexpr double kMaxVal = 1.0;

torch::Tensor forward(torch::Tensor x) {
  return torch::hardtanh(x, kMinVal, kMaxVal);
}
