// How to evaluate: the one settings type of an evaluation, carried whole from
// where it is decoded (a config's `eval:` section or the flags of `refinery
// eval`, `problems check` and `doctor`, through the one key table in
// agent/eval_keys.h) to the compile service, the launcher and the worker job.
// Each default is written beside its field.
//
// Choices that may be `auto` are kept as asked (EvalSettings::asked) until
// agent::make_context resolves them against the machine into `backend`,
// `size` and `profile`; the Evaluator reads only the resolved fields.
// Plain data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "eval/build/static_checks.h"
#include "eval/job.h"
#include "eval/verdict/outcome.h"

namespace eval {

// How an evaluation draws, compares and times. refinery's own mode, or
// KernelBench v0.1's (README: KernelBench-compatible mode): U[0,1) activation
// inputs, TF32 in cuDNN as PyTorch's defaults have it, atol = rtol = 1e-2, no
// cache flush between timed calls. Applied to the worker job in one place
// (Evaluator's job builder), after every setting is decoded.
enum class Mode { refinery, kernelbench };
std::string to_string(Mode mode);
base::Result<Mode> parse_mode(const std::string& name);

// The compile service's part (eval/build/compiler.h, CompileOptions).
struct CompileSettings {
  std::string cache_dir;                  // empty: base::default_cache_dir()
  uint64_t cache_max_bytes = 5ull << 30;  // the cache's size (eval/build/compile_cache.h); 0: no limit
  std::string cuda_arch;                  // nvcc target such as 90a; empty: the GPU's, else 90a
  bool lean_headers = true;               // nvcc: lean umbrella headers where safe (eval/build/lean_headers.h)
  double memory_gib = 6;  // each compiler process's address space, and each step's cgroup (CompileSandbox)
  bool operator==(const CompileSettings&) const = default;
};

// Which Python evaluations find a standby judge, its runner's torch imported
// (eval/worker_launcher.h, LaunchOptions::standby_backends): cuda's
// (`automatic`), every backend's, or none.
enum class Standby { automatic, on, off };

// The launcher's part (eval/worker_launcher.h, LaunchOptions) and where workers run.
struct LaunchSettings {
  double timeout = 300;        // seconds before the worker's process group is killed
  bool keep_job_dirs = false;  // leave the worker's job folders behind, for debugging
  // cuda: the GPUs evaluations run on, one worker at a time on each; empty:
  // every GPU the worker sees. cpu: `workers` evaluations at once (config key
  // `workers`, once `runners`).
  std::vector<int> devices;
  int workers = 1;
  Standby standby = Standby::automatic;
  bool operator==(const LaunchSettings&) const = default;
};

// What was asked where `auto` is an answer; agent::make_context resolves it.
struct AskedSettings {
  std::optional<Backend> backend;  // unset (auto): cuda where the worker sees a GPU, else cpu
  std::optional<Size> size;        // unset: full on cuda, small on cpu
  Profiler profiler = Profiler::automatic;
  std::vector<std::string> metrics;  // profile counters; empty: profiler::default_metrics()
  bool operator==(const AskedSettings&) const = default;
};

struct EvalSettings {
  AskedSettings asked;
  Backend backend = Backend::cpu;  // resolved from asked.backend
  // The candidate's language (language.h); unset, the backend's (language_for).
  std::optional<LanguageId> language;
  Size size = Size::small;  // resolved from asked.size
  Mode mode = Mode::refinery;
  // The precision both sides run at, as KernelBench's `precision` option:
  // every float32 input and weight is drawn as it is and cast to this dtype
  // (integer, bool and float64 inputs keep theirs), and the tolerance is at
  // least the dtype's (fp16, bf16: 1e-2). float32: as the spec says.
  DType precision = DType::float32;
  int trials = 5;  // correctness trials
  // Enabled, the most timed trials (max_trials, 100), the calls per window
  // (batch_calls) and the trace of every window (trace).
  TimingOptions timing;
  // Overrides of the tolerance in force (effective_tolerance); a half given
  // alone keeps the other half of what would be in force without it.
  std::optional<double> atol, rtol;
  std::optional<uint64_t> seed;  // master seed for the hidden input seeds; unset = random per evaluation
  // The judge's secret (WorkerJob::entropy): empty, the judge draws its own
  // for every evaluation; set only to repeat a recorded one's inputs.
  std::string entropy;
  int device = 0;
  int threads = 0;  // cpu: threads of reference and candidate; 0 = all (or a runner's share)
  // Profiling of a correct candidate on cuda, resolved from asked.profiler:
  // tool "cupti" (inside the worker) or "ncu" (a second, profile-only run
  // under Nsight Compute at ncu_path); tool "" profiles nothing.
  ProfileOptions profile;
  std::string ncu_path = "ncu";
  // Run even where the platform refuses a layer of the runner's sandbox (or
  // of the compilers'); the outcome then says trusted: false. Off, such an
  // evaluation is an Error.
  bool allow_untrusted = false;
  // A correct candidate whose timing uncertainty (Timing::uncertainty: the
  // relative widths of both medians' 95% intervals, added) is beyond
  // max_uncertainty is measured again, by a new worker, up to `remeasure`
  // more times; the surest measurement is kept, and if it is still beyond,
  // the timing says unstable (README: unstable timings). A measurement that
  // is not correct replaces the verdict.
  double max_uncertainty = 0.1;
  int remeasure = 1;
  // Shapes besides the shown one on which a candidate correct at the shown
  // size is checked again (eval/problems/hidden_shapes.h), each drawn from
  // the problem's rules with a fresh secret of refinery's own (never the
  // config's seed): a correct candidate that fails one is fails_hidden_shape.
  // 0: none. Problems whose spec fixes every dim are checked at the shown size only.
  int hidden_shapes = 0;
  // Values (API keys) replaced by [REDACTED] in every text of the Outcome: a
  // candidate, or the compiler quoting it, may print what it found.
  std::vector<std::string> secrets;
  // What the candidate's source may do (eval/build/static_checks.h): checked
  // before it is compiled; a rejecting finding is the verdict.
  StaticPolicy static_checks;
  // A correct speedup above this (0: no factor), or below the device's
  // physics floor, is quarantined (eval/verdict/quarantine.h).
  double quarantine_speedup = 20;
  // A correct cuda candidate that ran no kernel of its own (Outcome::kernels).
  LibraryOnly library_only = LibraryOnly::correct;
  // cuda: the runner's launch watch (Outcome::kernels); off only to measure what it costs.
  bool launch_watch = true;
  CompileSettings compile;
  LaunchSettings launch;
  std::string problems_dir;  // empty: eval::default_problems_root()
  bool operator==(const EvalSettings&) const = default;
};

}  // namespace eval
