// Reference for level3/28 (VisionTransformer): unfold into 16x16 patches -> Linear(768->512) ->
// prepend the cls token -> add the position embedding -> 6 post-norm TransformerEncoderLayers
// (8 heads, ReLU feed-forward) that read dim 0 as the sequence, as KernelBench's batch_first=False
// encoder does with its batch-first data -> token 0 of each image -> Linear -> GELU -> Linear.
// Dropouts (p = 0) omitted. Token 0 is the same vector in every image and meets only its own
// copies, so the output does not depend on img (kept as KernelBench has it).
#include <torch/torch.h>

#include <cmath>
#include <vector>

namespace {

namespace F = torch::nn::functional;

constexpr int64_t kPatch = 16;
constexpr int64_t kLayers = 6;
constexpr int64_t kHeads = 8;
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

torch::Tensor forward(torch::Tensor img, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  const int64_t B = img.size(0), channels = img.size(1);

  // "Patches": [B, C, S/16, S/16, 16, 16] reshaped in that logical order, so each 768-wide row
  // is three consecutive single-channel 16x16 patches (KernelBench's reshape, kept).
  torch::Tensor x = img.unfold(2, kPatch, kPatch).unfold(3, kPatch, kPatch)
                        .reshape({B, -1, kPatch * kPatch * channels});
  torch::Tensor embed_w = next();
  torch::Tensor embed_b = next();
  torch::Tensor cls_token = next();
  torch::Tensor pos_embedding = next();
  x = F::linear(x, embed_w, embed_b);
  x = torch::cat({cls_token.expand({B, -1, -1}), x}, /*dim=*/1) + pos_embedding;  // [B, T, D]

  // The encoder is sequence-first: [B, T, D] is read as B positions of T batch entries, so
  // attention mixes the images, position by position.
  for (int64_t i = 0; i < kLayers; ++i) x = encoder_layer(x, next);

  // Head on token 0 of each image: Linear -> GELU (erf) -> Linear.
  torch::Tensor head1_w = next();
  torch::Tensor head1_b = next();
  torch::Tensor head2_w = next();
  torch::Tensor head2_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  torch::Tensor cls = x.select(/*dim=*/1, /*index=*/0);  // [B, D]
  return F::linear(torch::gelu(F::linear(cls, head1_w, head1_b)), head2_w, head2_b);
}
