// Reference for level3/47 (NetVLAD without ghost clusters): soft-assign each descriptor to 32
// clusters (x @ clusters, BatchNorm1d in training mode, softmax), aggregate residuals to the
// cluster centres clusters2, then intra-normalise and L2-normalise the [B, D*K] result.
#include <torch/torch.h>

#include <vector>

namespace {

constexpr double kBatchNormEps = 1e-5;      // nn.BatchNorm1d default
constexpr double kBatchNormMomentum = 0.1;  // only moves running stats, which are not kept here

torch::Tensor l2_normalize(const torch::Tensor& v) {  // F.normalize(v): p = 2, dim = 1, eps 1e-12
  namespace F = torch::nn::functional;
  return F::normalize(v, F::NormalizeFuncOptions().p(2).dim(1).eps(1e-12));
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor clusters = next();
  torch::Tensor bn_w = next();
  torch::Tensor bn_b = next();
  torch::Tensor clusters2 = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  const int64_t N = x.size(1), D = x.size(2), K = clusters2.size(2);
  torch::Tensor descriptors = x.view({-1, D});                      // [B*N, D]
  torch::Tensor assignment = torch::matmul(descriptors, clusters);  // [B*N, K]
  assignment = torch::batch_norm(assignment, bn_w, bn_b, /*running_mean=*/{}, /*running_var=*/{},
                                 /*training=*/true, kBatchNormMomentum, kBatchNormEps,
                                 /*cudnn_enabled=*/true);
  assignment = torch::softmax(assignment, /*dim=*/1);
  assignment = assignment.view({-1, N, K});                                   // [B, N, K]
  torch::Tensor a = assignment.sum(/*dim=*/1, /*keepdim=*/true) * clusters2;  // [B, D, K]
  torch::Tensor vlad = torch::matmul(assignment.transpose(1, 2), x);          // [B, K, D]
  vlad = vlad.transpose(1, 2) - a;                                            // [B, D, K]
  vlad = l2_normalize(vlad);                                                  // over D
  vlad = vlad.reshape({-1, D * K});                                           // [B, D*K]
  return l2_normalize(vlad);
}
