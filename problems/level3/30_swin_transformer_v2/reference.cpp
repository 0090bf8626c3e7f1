// Reference for level3/30 (SwinTransformerV2, SwinV2-T): patch embedding (conv 4x4 stride 4 ->
// LayerNorm), four stages of Swin V2 blocks (scaled-cosine window attention with a continuous
// relative position bias, shifted windows in odd blocks, post-norm residuals, a GELU MLP) with
// PatchMerging between stages, then LayerNorm, the mean over tokens and a Linear head.
// Dropouts (p = 0) and drop_path (nn.Identity in KernelBench) are omitted.
#include <torch/torch.h>

#include <cmath>
#include <vector>

namespace {

namespace F = torch::nn::functional;

constexpr int kStages = 4;
constexpr int64_t kDepths[kStages] = {2, 2, 6, 2};
constexpr int64_t kHeads[kStages] = {3, 6, 12, 24};
constexpr int64_t kPatch = 4;
constexpr int64_t kImagePerWindow = 32;  // image side / window: 224 / 7 in KernelBench
constexpr double kLnEps = 1e-5;          // nn.LayerNorm default
constexpr double kMaxLogitScale = 100.0;  // logit_scale is clamped to log(100) before exp
constexpr double kBiasScale = 16.0;      // bias = 16 * sigmoid(cpb_mlp(...))
constexpr double kCoordRange = 8.0;      // relative offsets are scaled to [-8, 8] before the log
constexpr double kMaskValue = -100.0;    // added to pairs from different regions in shifted blocks

// One Swin V2 block's parameters, in the order forward uses them.
struct BlockParams {
  torch::Tensor q_bias, v_bias, qkv_w, logit_scale, cpb1_w, cpb1_b, cpb2_w, proj_w, proj_b;
  torch::Tensor norm1_w, norm1_b, fc1_w, fc1_b, fc2_w, fc2_b, norm2_w, norm2_b;
};

template <typename Next>
BlockParams take_block(Next& next) {
  BlockParams p;
  p.q_bias = next();
  p.v_bias = next();
  p.qkv_w = next();
  p.logit_scale = next();
  p.cpb1_w = next();
  p.cpb1_b = next();
  p.cpb2_w = next();
  p.proj_w = next();
  p.proj_b = next();
  p.norm1_w = next();
  p.norm1_b = next();
  p.fc1_w = next();
  p.fc1_b = next();
  p.fc2_w = next();
  p.fc2_b = next();
  p.norm2_w = next();
  p.norm2_b = next();
  return p;
}

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

// The fixed relative-coordinates table [(2w-1)^2, 2], in x's dtype: every offset (dh, dw) in
// -(w-1)..w-1 (dh major), scaled to t = 8*d/(w-1) and log-spaced as
// sign(t) * log2(1 + |t|) / log2(8).
torch::Tensor relative_coords_table(int64_t w, const torch::TensorOptions& options) {
  torch::Tensor offsets = torch::arange(-(w - 1), w, options);
  std::vector<torch::Tensor> grid = torch::meshgrid({offsets, offsets}, /*indexing=*/"ij");
  torch::Tensor table = torch::stack({grid[0], grid[1]}, /*dim=*/-1);  // [2w-1, 2w-1, 2]
  table = table / static_cast<double>(w - 1) * kCoordRange;
  table = torch::sign(table) * torch::log2(table.abs() + 1.0) / std::log2(kCoordRange);
  return table.view({-1, 2});
}

// The fixed relative position index [N*N] (N = w*w): for tokens i, j of a window, the row of
// the table holding their offset (hi - hj, wi - wj).
torch::Tensor relative_position_index(int64_t w, const torch::TensorOptions& options) {
  torch::Tensor pos = torch::arange(w * w, options.dtype(torch::kLong));
  torch::Tensor row = torch::div(pos, w, /*rounding_mode=*/"floor");
  torch::Tensor col = pos.remainder(w);
  torch::Tensor dh = row.unsqueeze(1) - row.unsqueeze(0) + (w - 1);
  torch::Tensor dw = col.unsqueeze(1) - col.unsqueeze(0) + (w - 1);
  return (dh * (2 * w - 1) + dw).view(-1);
}

// The fixed mask of a shifted block [nW, N, N]: the rolled H x W grid is split along each axis
// into [0, n-w), [n-w, n-shift), [n-shift, n), giving 9 regions; a pair of tokens of a window
// gets -100 when they come from different regions, 0 otherwise.
torch::Tensor shift_mask(int64_t H, int64_t W, int64_t w, int64_t shift,
                         const torch::TensorOptions& options) {
  auto region = [&](int64_t n) {
    torch::Tensor i = torch::arange(n, options.dtype(torch::kLong));
    return (i >= n - w).to(torch::kLong) + (i >= n - shift).to(torch::kLong);  // 0, 1 or 2
  };
  torch::Tensor label = region(H).unsqueeze(1) * 3 + region(W).unsqueeze(0);  // [H, W]
  torch::Tensor windows = window_partition(label.view({1, H, W, 1}), w).squeeze(-1);  // [nW, N]
  torch::Tensor differ = windows.unsqueeze(1) != windows.unsqueeze(2);
  return torch::zeros(differ.sizes(), options).masked_fill(differ, kMaskValue);
}

// Scaled-cosine multi-head attention within each window: x [nW*B, N, D] -> [nW*B, N, D]. mask
// is [nW, N, N] for a shifted block, undefined otherwise.
torch::Tensor window_attention(const torch::Tensor& x, const BlockParams& p, int64_t heads,
                               int64_t w, const torch::Tensor& mask) {
  const int64_t Bw = x.size(0), N = x.size(1), D = x.size(2);
  // qkv with bias cat(q_bias, 0, v_bias): keys get no bias.
  torch::Tensor qkv_bias = torch::cat({p.q_bias, torch::zeros_like(p.v_bias), p.v_bias});
  torch::Tensor qkv = F::linear(x, p.qkv_w, qkv_bias)
                          .reshape({Bw, N, 3, heads, D / heads})
                          .permute({2, 0, 3, 1, 4});  // [3, nW*B, heads, N, D/heads]
  torch::Tensor q = qkv[0], k = qkv[1], v = qkv[2];

  // Cosine similarity times exp(min(logit_scale, log 100)), per head.
  const auto unit = F::NormalizeFuncOptions().dim(-1);
  torch::Tensor attn =
      torch::matmul(F::normalize(q, unit), F::normalize(k, unit).transpose(-2, -1));
  attn = attn * torch::clamp_max(p.logit_scale, std::log(kMaxLogitScale)).exp();

  // Continuous relative position bias: MLP over the log-spaced offsets, gathered per pair.
  torch::Tensor table = relative_coords_table(w, x.options());
  torch::Tensor hidden = torch::relu(F::linear(table, p.cpb1_w, p.cpb1_b));
  torch::Tensor bias_table = F::linear(hidden, p.cpb2_w);  // [(2w-1)^2, heads]
  torch::Tensor bias = bias_table.index_select(0, relative_position_index(w, x.options()))
                           .view({N, N, heads})
                           .permute({2, 0, 1});  // [heads, N, N]
  attn = attn + kBiasScale * torch::sigmoid(bias);

  if (mask.defined()) {
    const int64_t nW = mask.size(0);
    attn = (attn.view({Bw / nW, nW, heads, N, N}) + mask.unsqueeze(1).unsqueeze(0))
               .view({Bw, heads, N, N});
  }
  attn = torch::softmax(attn, /*dim=*/-1);
  torch::Tensor out = torch::matmul(attn, v).transpose(1, 2).reshape({Bw, N, D});
  return F::linear(out, p.proj_w, p.proj_b);
}

// One Swin V2 block on x [B, H*W, D]: (shifted) window attention and the MLP, each added to the
// residual after its LayerNorm (post-norm).
torch::Tensor swin_block(const torch::Tensor& x, const BlockParams& p, int64_t H, int64_t W,
                         int64_t w, int64_t shift, int64_t heads) {
  const int64_t B = x.size(0), D = x.size(2);
  torch::Tensor h = x.view({B, H, W, D});
  torch::Tensor mask;
  if (shift > 0) {
    h = torch::roll(h, {-shift, -shift}, {1, 2});
    mask = shift_mask(H, W, w, shift, x.options());
  }
  torch::Tensor windows = window_attention(window_partition(h, w), p, heads, w, mask);
  h = window_reverse(windows, w, B, H, W);
  if (shift > 0) h = torch::roll(h, {shift, shift}, {1, 2});
  torch::Tensor y = x + layer_norm(h.reshape({B, H * W, D}), p.norm1_w, p.norm1_b);
  torch::Tensor mlp = F::linear(torch::gelu(F::linear(y, p.fc1_w, p.fc1_b)), p.fc2_w, p.fc2_b);
  return y + layer_norm(mlp, p.norm2_w, p.norm2_b);
}

// PatchMerging on x [B, H*W, D]: each 2x2 neighbourhood's tokens, in the order (row, column) =
// (0,0), (1,0), (0,1), (1,1), concatenated to 4D -> Linear(4D->2D, no bias) -> LayerNorm(2D).
torch::Tensor patch_merging(const torch::Tensor& x, int64_t H, int64_t W,
                            const torch::Tensor& reduction_w, const torch::Tensor& norm_w,
                            const torch::Tensor& norm_b) {
  using torch::indexing::None;
  using torch::indexing::Slice;
  const int64_t B = x.size(0), D = x.size(2);
  torch::Tensor h = x.view({B, H, W, D});
  auto quarter = [&](int64_t row, int64_t col) {
    return h.index({Slice(), Slice(row, None, 2), Slice(col, None, 2)});
  };
  torch::Tensor merged =
      torch::cat({quarter(0, 0), quarter(1, 0), quarter(0, 1), quarter(1, 1)}, /*dim=*/-1)
          .view({B, -1, 4 * D});
  return layer_norm(F::linear(merged, reduction_w), norm_w, norm_b);
}

}  // namespace

torch::Tensor forward(torch::Tensor x, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  TORCH_CHECK(x.size(2) == x.size(3) && x.size(2) % kImagePerWindow == 0,
              "the image must be square with a side of 32 windows, got ", x.sizes());
  // KernelBench's window 7 is its 224 image's side / 32; the window follows the image here.
  const int64_t window_size = x.size(2) / kImagePerWindow;

  // Patch embedding: conv 4x4 stride 4 -> tokens [B, L, C] (row-major) -> LayerNorm.
  torch::Tensor embed_w = next();
  torch::Tensor embed_b = next();
  torch::Tensor embed_norm_w = next();
  torch::Tensor embed_norm_b = next();
  torch::Tensor h = torch::conv2d(x, embed_w, embed_b, /*stride=*/kPatch);
  int64_t res = h.size(2);  // the grid side: 56, 28, 14, 7 at full size
  h = layer_norm(h.flatten(2).transpose(1, 2), embed_norm_w, embed_norm_b);

  for (int s = 0; s < kStages; ++s) {
    // A grid no larger than the window is one window, never shifted (KernelBench's rule).
    const bool one_window = res <= window_size;
    const int64_t w = one_window ? res : window_size;
    TORCH_CHECK(res % w == 0, "stage ", s, ": grid ", res, " does not divide into windows of ", w);
    for (int64_t b = 0; b < kDepths[s]; ++b) {
      BlockParams p = take_block(next);
      TORCH_CHECK(p.logit_scale.size(0) == kHeads[s], "stage ", s, " has ", kHeads[s], " heads");
      const int64_t shift = (b % 2 == 1 && !one_window) ? window_size / 2 : 0;
      h = swin_block(h, p, res, res, w, shift, kHeads[s]);
    }
    if (s + 1 < kStages) {
      torch::Tensor reduction_w = next();
      torch::Tensor merge_norm_w = next();
      torch::Tensor merge_norm_b = next();
      h = patch_merging(h, res, res, reduction_w, merge_norm_w, merge_norm_b);
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
