// Reference for level3/29 (SwinMLP, Swin-MLP-T): patch embedding (conv 4x4 stride 4 ->
// LayerNorm), four stages of Swin-MLP blocks (a per-head spatial MLP over 7x7 windows, on a
// zero-padded grid in odd blocks, then a GELU MLP, both pre-norm residuals) with PatchMerging
// between stages, then LayerNorm, the mean over tokens and a Linear head. Dropouts (p = 0) and
// drop_path (nn.Identity in KernelBench) are omitted.
#include <torch/torch.h>

#include <algorithm>
#include <vector>

namespace {

namespace F = torch::nn::functional;

constexpr int kStages = 4;
constexpr int64_t kDepths[kStages] = {2, 2, 6, 2};
constexpr int64_t kHeads[kStages] = {3, 6, 12, 24};
constexpr int64_t kPatch = 4;
constexpr int64_t kWindow = 7;
constexpr double kLnEps = 1e-5;  // nn.LayerNorm default

torch::Tensor layer_norm(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) {
  return torch::layer_norm(x, {x.size(-1)}, w, b, kLnEps);
}

// [B, H, W, C] -> [B * (H/w) * (W/w), w*w, C]: windows in row-major order within each image,
// tokens in row-major order within each window.
torch::Tensor window_partition(const torch::Tensor& x, int64_t w) {
  const int64_t B = x.size(0), H = x.size(1), W = x.size(2), C = x.size(3);
  return x.view({B, H / w, w, W / w, w, C}).permute({0, 1, 3, 2, 4, 5}).reshape({-1, w * w, C});
}

// The inverse of window_partition: [B * (H/w) * (W/w), w*w, C] -> [B, H, W, C].
torch::Tensor window_reverse(const torch::Tensor& windows, int64_t w, int64_t B, int64_t H,
                             int64_t W) {
  const int64_t C = windows.size(-1);
  return windows.view({B, H / w, W / w, w, w, C}).permute({0, 1, 3, 2, 4, 5}).reshape({B, H, W, C});
}

// One Swin-MLP block on x [B, H*W, D] with windows of w and `shift` (0, or w/2 in odd blocks):
// x = x + spatial_mlp(LN1(x)); x = x + fc2(GELU(fc1(LN2(x)))). Takes its 10 tensors from `next`.
template <typename Next>
torch::Tensor swin_mlp_block(const torch::Tensor& x, int64_t H, int64_t W, int64_t w,
                             int64_t shift, int64_t heads, Next& next) {
  torch::Tensor norm1_w = next();
  torch::Tensor norm1_b = next();
  torch::Tensor spatial_w = next();
  torch::Tensor spatial_b = next();
  torch::Tensor norm2_w = next();
  torch::Tensor norm2_b = next();
  torch::Tensor fc1_w = next();
  torch::Tensor fc1_b = next();
  torch::Tensor fc2_w = next();
  torch::Tensor fc2_b = next();
  const int64_t B = x.size(0), D = x.size(2), head_dim = D / heads, n = w * w;

  torch::Tensor h = layer_norm(x, norm1_w, norm1_b).view({B, H, W, D});
  // The "shift": zero-pad (after the norm) by w - shift before and shift after, on both axes.
  const int64_t before = w - shift, after = shift;
  if (shift > 0) h = torch::constant_pad_nd(h, {0, 0, before, after, before, after}, 0);
  const int64_t Hp = h.size(1), Wp = h.size(2);
  TORCH_CHECK(Hp % w == 0 && Wp % w == 0, "grid ", Hp, "x", Wp, " does not divide into windows of ", w);

  // Spatial MLP: per window and head, a w*w x w*w matrix mixes the tokens (the same for each of
  // the head's channels): Conv1d(heads*n -> heads*n, k1, groups=heads) on [windows, heads*n, D/h].
  torch::Tensor t = window_partition(h, w).view({-1, n, heads, head_dim}).transpose(1, 2)
                        .reshape({-1, heads * n, head_dim});
  t = F::conv1d(t, spatial_w, F::Conv1dFuncOptions().bias(spatial_b).groups(heads));
  t = t.view({-1, heads, n, head_dim}).transpose(1, 2).reshape({-1, n, D});
  h = window_reverse(t, w, B, Hp, Wp);
  if (shift > 0) {
    using torch::indexing::Slice;
    h = h.index({Slice(), Slice(before, Hp - after), Slice(before, Wp - after)});
  }
  torch::Tensor y = x + h.reshape({B, H * W, D});

  torch::Tensor mlp = F::linear(torch::gelu(F::linear(layer_norm(y, norm2_w, norm2_b), fc1_w, fc1_b)),
                                fc2_w, fc2_b);
  return y + mlp;
}

// PatchMerging on x [B, H*W, D]: each 2x2 neighbourhood's tokens, in the order (row, column) =
// (0,0), (1,0), (0,1), (1,1), concatenated to 4D -> LayerNorm(4D) -> Linear(4D->2D, no bias).
template <typename Next>
torch::Tensor patch_merging(const torch::Tensor& x, int64_t H, int64_t W, Next& next) {
  using torch::indexing::None;
  using torch::indexing::Slice;
  torch::Tensor norm_w = next();
  torch::Tensor norm_b = next();
  torch::Tensor reduction_w = next();
  const int64_t B = x.size(0), D = x.size(2);
  torch::Tensor h = x.view({B, H, W, D});
  auto quarter = [&](int64_t row, int64_t col) {
    return h.index({Slice(), Slice(row, None, 2), Slice(col, None, 2)});
  };
  torch::Tensor merged = torch::cat({quarter(0, 0), quarter(1, 0), quarter(0, 1), quarter(1, 1)}, -1)
                             .view({B, -1, 4 * D});
  return F::linear(layer_norm(merged, norm_w, norm_b), reduction_w);
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };

  // Patch embedding: conv 4x4 stride 4 -> tokens [B, L, C] (row-major) -> LayerNorm.
  torch::Tensor embed_w = next();
  torch::Tensor embed_b = next();
  torch::Tensor embed_norm_w = next();
  torch::Tensor embed_norm_b = next();
  torch::Tensor h = torch::conv2d(x, embed_w, embed_b, /*stride=*/kPatch);
  int64_t res = h.size(2);  // the grid side: 56, 28, 14, 7 at 224x224
  TORCH_CHECK(h.size(3) == res, "the image must be square, got ", x.sizes());
  h = layer_norm(h.flatten(2).transpose(1, 2), embed_norm_w, embed_norm_b);

  for (int s = 0; s < kStages; ++s) {
    // A grid no larger than the window is one window, never shifted (KernelBench's rule).
    const bool one_window = res <= kWindow;
    const int64_t w = std::min(res, kWindow);
    for (int64_t b = 0; b < kDepths[s]; ++b) {
      const int64_t shift = (b % 2 == 1 && !one_window) ? kWindow / 2 : 0;
      h = swin_mlp_block(h, res, res, w, shift, kHeads[s], next);
    }
    if (s + 1 < kStages) {
      h = patch_merging(h, res, res, next);
      res /= 2;
    }
  }

  // Final LayerNorm, AdaptiveAvgPool1d(1) over tokens, Linear head.
  torch::Tensor norm_w = next();
  torch::Tensor norm_b = next();
  torch::Tensor head_w = next();
  torch::Tensor head_b = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  h = layer_norm(h, norm_w, norm_b).mean(/*dim=*/1);  // [B, 8C]
  return F::linear(h, head_w, head_b);
}
