// Reference for level3/43 (minGPT causal self-attention): c_attn -> split q, k, v -> 8 heads ->
// softmax(mask(q k^T / sqrt(head size))) v -> merge heads -> c_proj. Dropouts (p = 0) omitted.
#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <vector>

constexpr int64_t kNumHeads = 8;

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor c_attn_w = next();
  torch::Tensor c_attn_b = next();
  torch::Tensor c_proj_w = next();
  torch::Tensor c_proj_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  const int64_t B = x.size(0), T = x.size(1), C = x.size(2);
  const int64_t head_size = C / kNumHeads;
  std::vector<torch::Tensor> qkv = F::linear(x, c_attn_w, c_attn_b).split(C, /*dim=*/2);
  // [B, T, C] -> [B, heads, T, head_size]
  auto heads = [&](const torch::Tensor& t) {
    return t.view({B, T, kNumHeads, head_size}).transpose(1, 2);
  };
  torch::Tensor query = heads(qkv[0]), key = heads(qkv[1]), value = heads(qkv[2]);
  torch::Tensor att =
      torch::matmul(query, key.transpose(-2, -1)) * (1.0 / std::sqrt(double(head_size)));
  // minGPT's tril buffer, sliced to T: keys after the query are masked out.
  torch::Tensor causal = torch::ones({T, T}, x.options().dtype(torch::kBool)).tril();
  att = att.masked_fill(causal.logical_not(), -std::numeric_limits<double>::infinity());
  att = torch::softmax(att, /*dim=*/-1);
  torch::Tensor y = torch::matmul(att, value).transpose(1, 2).contiguous().view({B, T, C});
  return F::linear(y, c_proj_w, c_proj_b);
}
