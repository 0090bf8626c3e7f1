// Reference for level3/44 (minGPT block): x = x + attn(ln_1(x)); x = x + mlp(ln_2(x)), with
// level3/43's 8-head causal self-attention and a 4x MLP with minGPT's tanh GELU (NewGELU).
// Dropouts (p = 0) omitted.
#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <vector>

namespace {

constexpr int64_t kNumHeads = 8;
constexpr double kLayerNormEps = 1e-5;               // nn.LayerNorm default
constexpr double kSqrt2OverPi = 0.7978845608028654;  // math.sqrt(2.0 / math.pi)
constexpr double kCubicCoeff = 0.044715;

torch::Tensor causal_self_attention(const torch::Tensor& x, const torch::Tensor& c_attn_w,
                                    const torch::Tensor& c_attn_b, const torch::Tensor& c_proj_w,
                                    const torch::Tensor& c_proj_b) {
  namespace F = torch::nn::functional;
  const int64_t B = x.size(0), T = x.size(1), C = x.size(2);
  const int64_t head_size = C / kNumHeads;
  std::vector<torch::Tensor> qkv = F::linear(x, c_attn_w, c_attn_b).split(C, /*dim=*/2);
  auto heads = [&](const torch::Tensor& t) {  // [B, T, C] -> [B, heads, T, head_size]
    return t.view({B, T, kNumHeads, head_size}).transpose(1, 2);
  };
  torch::Tensor q = heads(qkv[0]), k = heads(qkv[1]), v = heads(qkv[2]);
  torch::Tensor att = torch::matmul(q, k.transpose(-2, -1)) * (1.0 / std::sqrt(double(head_size)));
  torch::Tensor causal = torch::ones({T, T}, x.options().dtype(torch::kBool)).tril();
  att = att.masked_fill(causal.logical_not(), -std::numeric_limits<double>::infinity());
  att = torch::softmax(att, /*dim=*/-1);
  torch::Tensor y = torch::matmul(att, v).transpose(1, 2).contiguous().view({B, T, C});
  return F::linear(y, c_proj_w, c_proj_b);
}

// minGPT's NewGELU, op by op as minGPT writes it.
torch::Tensor new_gelu(const torch::Tensor& u) {
  return 0.5 * u * (1.0 + torch::tanh(kSqrt2OverPi * (u + kCubicCoeff * torch::pow(u, 3.0))));
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor ln_1_w = next();
  torch::Tensor ln_1_b = next();
  torch::Tensor c_attn_w = next();
  torch::Tensor c_attn_b = next();
  torch::Tensor attn_c_proj_w = next();
  torch::Tensor attn_c_proj_b = next();
  torch::Tensor ln_2_w = next();
  torch::Tensor ln_2_b = next();
  torch::Tensor c_fc_w = next();
  torch::Tensor c_fc_b = next();
  torch::Tensor mlp_c_proj_w = next();
  torch::Tensor mlp_c_proj_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  const int64_t C = x.size(2);
  torch::Tensor h = torch::layer_norm(x, {C}, ln_1_w, ln_1_b, kLayerNormEps);
  x = x + causal_self_attention(h, c_attn_w, c_attn_b, attn_c_proj_w, attn_c_proj_b);
  h = torch::layer_norm(x, {C}, ln_2_w, ln_2_b, kLayerNormEps);
  h = F::linear(new_gelu(F::linear(h, c_fc_w, c_fc_b)), mlp_c_proj_w, mlp_c_proj_b);
  return x + h;
}
