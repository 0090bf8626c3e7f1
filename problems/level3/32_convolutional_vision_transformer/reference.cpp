// Reference for level3/32 (ConvolutionalVisionTransformer): conv 4x4 stride 4 -> flatten ->
// Linear to one token -> [cls token, that token] -> 6 post-norm TransformerEncoderLayers (4
// heads, ReLU feed-forward) over that sequence of 2 -> Linear on the cls position. Dropouts
// (p = 0) omitted.
#include <torch/torch.h>

#include <cmath>
#include <vector>

namespace {

namespace F = torch::nn::functional;

constexpr int64_t kPatch = 4;
constexpr int64_t kLayers = 6;
constexpr int64_t kHeads = 4;
constexpr double kLnEps = 1e-5;  // nn.LayerNorm default

// nn.MultiheadAttention's self-attention on a sequence-first x [L, N, E]: each of the N batch
// entries attends over its own L positions, with kHeads heads of E/kHeads.
torch::Tensor self_attention(const torch::Tensor& x, const torch::Tensor& in_w,
                             const torch::Tensor& in_b, const torch::Tensor& out_w,
                             const torch::Tensor& out_b) {
  const int64_t L = x.size(0), N = x.size(1), E = x.size(2);
  const int64_t head_dim = E / kHeads;
  std::vector<torch::Tensor> qkv = F::linear(x, in_w, in_b).chunk(3, /*dim=*/-1);
  // [L, N, E] -> [N*heads, L, head_dim]: batch entry n, head j is row n*heads + j.
  auto split_heads = [&](const torch::Tensor& t) {
    return t.contiguous().view({L, N * kHeads, head_dim}).transpose(0, 1);
  };
  torch::Tensor q = split_heads(qkv[0]) * (1.0 / std::sqrt(static_cast<double>(head_dim)));
  torch::Tensor k = split_heads(qkv[1]);
  torch::Tensor v = split_heads(qkv[2]);
  torch::Tensor p = torch::softmax(torch::bmm(q, k.transpose(1, 2)), /*dim=*/-1);  // [N*h, L, L]
  torch::Tensor o = torch::bmm(p, v).transpose(0, 1).contiguous().view({L, N, E});
  return F::linear(o, out_w, out_b);
}

// nn.TransformerEncoderLayer (post-norm, ReLU) on a sequence-first x [L, N, E]; takes its 12
// tensors from `next`.
template <typename Next>
torch::Tensor encoder_layer(const torch::Tensor& x, Next& next) {
  torch::Tensor in_w = next();
  torch::Tensor in_b = next();
  torch::Tensor out_w = next();
  torch::Tensor out_b = next();
  torch::Tensor norm1_w = next();
  torch::Tensor norm1_b = next();
  torch::Tensor linear1_w = next();
  torch::Tensor linear1_b = next();
  torch::Tensor linear2_w = next();
  torch::Tensor linear2_b = next();
  torch::Tensor norm2_w = next();
  torch::Tensor norm2_b = next();
  const int64_t E = x.size(-1);
  torch::Tensor h = x + self_attention(x, in_w, in_b, out_w, out_b);
  h = torch::layer_norm(h, {E}, norm1_w, norm1_b, kLnEps);
  torch::Tensor ff = F::linear(torch::relu(F::linear(h, linear1_w, linear1_b)), linear2_w, linear2_b);
  return torch::layer_norm(h + ff, {E}, norm2_w, norm2_b, kLnEps);
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  const int64_t B = x.size(0);

  // Patch conv, then the whole [D, S/4, S/4] map (channel-major) projected to one token.
  torch::Tensor conv_w = next();
  torch::Tensor conv_b = next();
  torch::Tensor proj_w = next();
  torch::Tensor proj_b = next();
  torch::Tensor cls_token = next();
  torch::Tensor h = torch::conv2d(x, conv_w, conv_b, /*stride=*/kPatch).flatten(1);
  h = F::linear(h, proj_w, proj_b);  // [B, D]

  // The encoder is batch_first; here the sequence [cls, token] is kept sequence-first, [2, B, D].
  const int64_t D = h.size(1);
  torch::Tensor seq = torch::stack({cls_token.view({D}).expand({B, D}), h}, /*dim=*/0);
  for (int64_t i = 0; i < kLayers; ++i) seq = encoder_layer(seq, next);

  torch::Tensor fc_w = next();
  torch::Tensor fc_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  return F::linear(seq[0], fc_w, fc_b);  // the cls position, [B, NC]
}
