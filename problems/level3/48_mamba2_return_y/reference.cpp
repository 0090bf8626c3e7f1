// Reference for level3/48 (Mamba-2 SSD, output Y): the chunked state-space-duality scan with
// chunks of 64 steps: intra-chunk (diagonal) outputs, per-chunk states, the recurrence between
// chunks from a zero initial state, and the state-to-output (off-diagonal) term; Y = diag + off.
#include <torch/torch.h>

#include <limits>
#include <vector>

namespace {

constexpr int64_t kBlockLen = 64;  // chunk length; the sequence length must be a multiple of it

// Naive segment sum over the last dim: out[..., i, j] = cumsum[i] - cumsum[j] (= x[j+1] + ... +
// x[i]) for j <= i, and -inf above the diagonal, so that exp() of it is a causal decay matrix.
torch::Tensor segsum(const torch::Tensor& x) {
  const int64_t T = x.size(-1);
  torch::Tensor cs = torch::cumsum(x, /*dim=*/-1);
  torch::Tensor seg = cs.unsqueeze(-1) - cs.unsqueeze(-2);
  torch::Tensor keep = torch::ones({T, T}, x.options().dtype(torch::kBool)).tril();
  return seg.masked_fill(keep.logical_not(), -std::numeric_limits<double>::infinity());
}

}  // namespace

torch::Tensor forward(torch::Tensor X, const std::vector<torch::Tensor>& params) {
  size_t k = 0;
  auto next = [&] { return params.at(k++); };
  torch::Tensor A = next();
  torch::Tensor B = next();
  torch::Tensor C = next();
  TORCH_CHECK(k == params.size(), "forward used ", k, " of ", params.size(), " parameters");
  const int64_t batch = X.size(0), seq = X.size(1), heads = X.size(2), d_head = X.size(3);
  const int64_t d_state = B.size(3);
  const int64_t chunks = seq / kBlockLen;
  // "b (c l) ... -> b c l ...": split the sequence into chunks of kBlockLen steps.
  torch::Tensor Xb = X.view({batch, chunks, kBlockLen, heads, d_head});
  torch::Tensor Bb = B.view({batch, chunks, kBlockLen, heads, d_state});
  torch::Tensor Cb = C.view({batch, chunks, kBlockLen, heads, d_state});
  torch::Tensor Ab = A.view({batch, chunks, kBlockLen, heads}).permute({0, 3, 1, 2});  // b h c l
  torch::Tensor A_cumsum = torch::cumsum(Ab, /*dim=*/-1);

  // 1. Outputs within each chunk (the diagonal blocks).
  torch::Tensor L = torch::exp(segsum(Ab));  // b h c l s
  torch::Tensor Y_diag = torch::einsum("bclhn,bcshn,bhcls,bcshp->bclhp", {Cb, Bb, L, Xb});

  // 2. The state each chunk ends in, from a zero state at its start.
  torch::Tensor A_last = A_cumsum.slice(/*dim=*/-1, kBlockLen - 1);  // b h c 1
  torch::Tensor decay_states = torch::exp(A_last - A_cumsum);
  torch::Tensor states = torch::einsum("bclhn,bhcl,bclhp->bchpn", {Bb, decay_states, Xb});

  // 3. Recurrence between chunks, from a zero initial state.
  states = torch::cat({torch::zeros_like(states.slice(/*dim=*/1, 0, 1)), states}, /*dim=*/1);
  torch::Tensor chunk_totals = torch::constant_pad_nd(A_cumsum.select(/*dim=*/-1, -1), {1, 0});
  torch::Tensor decay_chunk = torch::exp(segsum(chunk_totals));  // b h (c+1) (c+1)
  torch::Tensor new_states = torch::einsum("bhzc,bchpn->bzhpn", {decay_chunk, states});
  states = new_states.slice(/*dim=*/1, 0, chunks);  // the state entering each chunk

  // 4. Contribution of the entering state to each chunk's outputs (the off-diagonal blocks).
  torch::Tensor state_decay_out = torch::exp(A_cumsum);
  torch::Tensor Y_off = torch::einsum("bclhn,bchpn,bhcl->bclhp", {Cb, states, state_decay_out});

  // "b c l h p -> b (c l) h p"
  return (Y_diag + Y_off).reshape({batch, seq, heads, d_head});
}
