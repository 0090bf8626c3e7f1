// Reference for level3/50 (ReLU self-attention): c_attn -> split q, k, v -> 12 heads ->
// relu(mask(q k^T / sqrt(head size))) v (no softmax) -> merge heads. c_proj is built by
// KernelBench's module but never applied: its parameters are taken and not used.
#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <vector>

constexpr int64_t kNumHeads = 12;

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  namespace F = torch::nn::functional;
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor c_attn_w = next();
  torch::Tensor c_attn_b = next();
  next();  // c_proj.weight: unused, KernelBench builds c_proj and never applies it
  next();  // c_proj.bias: the same
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  const int64_t B = x.size(0), T = x.size(1), C = x.size(2);
  const int64_t head_size = C / kNumHeads;
  std::vector<torch::Tensor> qkv = F::linear(x, c_attn_w, c_attn_b).split(C, /*dim=*/2);
  auto heads = [&](const torch::Tensor& t) {  // [B, T, C] -> [B, heads, T, head_size]
    return t.view({B, T, kNumHeads, head_size}).transpose(1, 2);
  };
  torch::Tensor query = heads(qkv[0]), key = heads(qkv[1]), value = heads(qkv[2]);
  torch::Tensor att =
      torch::matmul(query, key.transpose(-2, -1)) * (1.0 / std::sqrt(double(head_size)));
  // Keys after the query are set to -inf, which the ReLU then turns into 0.
  torch::Tensor causal = torch::ones({T, T}, x.options().dtype(torch::kBool)).tril();
  att = att.masked_fill(causal.logical_not(), -std::numeric_limits<double>::infinity());
  att = torch::relu(att);
  return torch::matmul(att, value).transpose(1, 2).contiguous().view({B, T, C});
}
