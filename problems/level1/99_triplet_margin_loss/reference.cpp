// Reference for level1/99 (TripletMarginLoss): mean over rows of
// max(||a - p + eps||_2 - ||a - n + eps||_2 + margin, 0); returns a 0-dim tensor.
#include <torch/torch.h>

constexpr double kMargin = 1.0;
constexpr double kP = 2.0;
constexpr double kEps = 1e-6;
constexpr bool kSwap = false;

torch::Tensor forward(torch::Tensor anchor, torch::Tensor positive, torch::Tensor negative) {
  namespace F = torch::nn::functional;
  return F::triplet_margin_loss(anchor, positive, negative,
                                F::TripletMarginLossFuncOptions()
                                    .margin(kMargin)
                                    .p(kP)
                                    .eps(kEps)
                                    .swap(kSwap)
                                    .reduction(torch::kMean));
}
