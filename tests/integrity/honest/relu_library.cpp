// Honest where the campaign allows library ops (the default): LibTorch's own
// ReLU. Where it forbids them (static_checks: {library_ops: reject}), rejected.
#include <torch/torch.h>

torch::Tensor forward(torch::Tensor x) { return torch::relu(x); }
