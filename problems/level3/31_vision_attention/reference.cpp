// Reference for level3/31 (VisionAttention): the pixels of x [B, E, H, W] as a sequence of
// H*W tokens, multi-head self-attention as nn.MultiheadAttention (4 heads) computes it, plus the
// tokens themselves (residual), LayerNorm over E, back to [B, E, H, W].
#include <torch/torch.h>

#include <cmath>
#include <vector>

namespace {

constexpr int64_t kHeads = 4;
constexpr double kLnEps = 1e-5;  // nn.LayerNorm default

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor in_proj_w = next();
  torch::Tensor in_proj_b = next();
  torch::Tensor out_proj_w = next();
  torch::Tensor out_proj_b = next();
  torch::Tensor ln_w = next();
  torch::Tensor ln_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  const int64_t b = x.size(0), e = x.size(1), h = x.size(2), w = x.size(3);
  const int64_t l = h * w, head_dim = e / kHeads;
  torch::Tensor t = x.view({b, e, l}).permute({2, 0, 1});  // [L, B, E], sequence first
  std::vector<torch::Tensor> qkv = F::linear(t, in_proj_w, in_proj_b).chunk(3, /*dim=*/-1);
  // [L, B, E] -> [B*heads, L, head_dim]: batch entry i, head j is row i*heads + j.
  auto split_heads = [&](const torch::Tensor& y) {
    return y.contiguous().view({l, b * kHeads, head_dim}).transpose(0, 1);
  };
  torch::Tensor query = split_heads(qkv[0]) * (1.0 / std::sqrt(static_cast<double>(head_dim)));
  torch::Tensor key = split_heads(qkv[1]);
  torch::Tensor value = split_heads(qkv[2]);
  // [B*heads, L, L]
  torch::Tensor p = torch::softmax(torch::bmm(query, key.transpose(1, 2)), /*dim=*/-1);
  torch::Tensor o = torch::bmm(p, value).transpose(0, 1).contiguous().view({l, b, e});
  o = F::linear(o, out_proj_w, out_proj_b);
  torch::Tensor y = torch::layer_norm(o + t, {e}, ln_w, ln_b, kLnEps);  // [L, B, E]
  return y.permute({1, 2, 0}).reshape({b, e, h, w});
}
