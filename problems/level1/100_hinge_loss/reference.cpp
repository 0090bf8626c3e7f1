// Reference for level1/100 (HingeLoss): mean(clamp(1 - predictions * targets, min=0)), the 1-D
// targets broadcasting along the last dim (per column, KernelBench's quirk); returns a 0-dim
// tensor.
#include <torch/torch.h>

constexpr double kMargin = 1.0;

torch::Tensor forward(torch::Tensor predictions, torch::Tensor targets) {
  return torch::clamp_min(kMargin - predictions * targets, 0.0).mean();
}
