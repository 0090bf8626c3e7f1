// Reference for level1/98 (KLDivLoss): kl_div(log(predictions), targets, 'batchmean'), i.e.
// sum(targets * (log(targets) - log(predictions))) / batch; returns a 0-dim tensor.
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor predictions, torch::Tensor targets) {
  namespace F = torch::nn::functional;
  return F::kl_div(torch::log(predictions), targets,
                   F::KLDivFuncOptions().reduction(torch::kBatchMean).log_target(false));
}
