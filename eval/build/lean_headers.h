// Lean headers: a candidate that includes <torch/torch.h> or
// <torch/extension.h> compiled against ATen alone, three to four times faster.
//
// Most of the cold compile of a LibTorch candidate is spent parsing headers it
// never uses: every one of ATen's ~2,000 operators (ATen/Functions.h), the
// autograd engine, the dispatcher, the operator registry and torch::nn, each
// parsed three times under nvcc (host front end, device front end, host
// compile). A candidate typically calls a handful of operators.
//
// plan_lean_headers() reads the candidate and, when it is safe, gives three
// files to put first on the include path:
//   - ATen/Functions.h: the installed one with its per-operator includes cut
//     down to the operators the source names (every overload of a named
//     operator is in its one header, so overload resolution sees the same
//     set), plus those the file's own inline functions call;
//   - torch/torch.h: <ATen/ATen.h> and the `namespace torch { ... }` aliases
//     and dtype constants, taken from the installed torch/types.h;
//   - torch/types.h: the same;
//   - refinery/cuda_helpers.h, empty, where the source names none of the CUDA
//     helpers (CUDAContext.h and cuBLAS's, cuSPARSE's and cuSOLVER's headers)
//     that refinery's <torch/extension.h> otherwise includes.
// refinery's <torch/extension.h> (compat_headers.h) includes <torch/torch.h>
// and so gets the lean one.
//
// Safe means that a lean compile either fails or means what the full one
// means. A lean compile that fails is compiled again with the full headers,
// and that result is used (CompileService), so verdicts and compile errors are
// the full headers' own. What could compile lean and mean something else is
// refused up front: `torch::` names that LibTorch defines apart from `at::`
// with another meaning (torch::tensor's dtype inference, torch::cuda), any
// `requires_grad` (torch:: factories honour it, at:: ones do not), `using
// namespace torch`, and any other LibTorch header than the umbrella ones.
#pragma once

#include <string>
#include <vector>

#include "eval/build/compat_headers.h"

namespace eval {

struct LeanPlan {
  bool use = false;
  std::string why_not;              // when !use and the source includes an umbrella header
  std::vector<std::string> ops;     // operators whose ATen/ops/<op>.h is kept, sorted
  std::vector<CompatHeader> files;  // to put first on the include path, when use
  // Whether <torch/extension.h> brings its CUDA helpers (ATen/cuda/CUDAContext.h,
  // with cuBLAS's, cuSPARSE's and cuSOLVER's headers; CUDAGuard, CUDAStream):
  // only where the source names one of them (names_cuda_helpers).
  bool cuda_helpers = true;
};

// Whether code (comments and literals taken out) names anything of the CUDA
// helpers <torch/extension.h> includes: a name with CUDA in it (CUDAGuard,
// getCurrentCUDAStream, C10_CUDA_KERNEL_LAUNCH_CHECK; not CHECK_CUDA or
// nvcc's __CUDA_ARCH__), the cuda namespace of ATen or c10, or a CUDA
// library's (cublas..., cusparse...). Where it names none the lean headers
// leave them out; if it needed one after all, the lean compile fails and the
// full headers decide, as for anything else.
bool names_cuda_helpers(const std::string& code);

// `torch_includes` are LibTorch's include folders (Toolchain::torch_includes).
// Returns use == false with an empty why_not for a source that includes no
// umbrella header (it is already as light as it can be).
LeanPlan plan_lean_headers(const std::string& source, const std::vector<std::string>& torch_includes);

// What the source alone decides, without reading LibTorch: use (and no files)
// when plan_lean_headers would go on to plan, or why not. Cheap: a cached
// compile's key needs no more.
LeanPlan screen_lean_headers(const std::string& source);

// After a lean compile failed: when every error in `log` is an operator that
// one of LibTorch's own headers calls in a way the plan's scan missed (not
// in the source, whose files are under `source_dir`), remembers those
// operators for every later plan and returns true, so that the compile is
// tried lean once more. False for anything else: the full headers decide.
bool learn_lean_ops(const std::string& log, const std::string& source_dir,
                    const std::vector<std::string>& torch_includes);

}  // namespace eval
