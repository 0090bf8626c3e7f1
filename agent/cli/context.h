// What every evaluating subcommand sets up: the problem index, the compile
// service with its cache, the worker launcher, and the backend (cuda where
// the worker sees a GPU, else cpu). It is built from EvalOptions, which the
// command line (eval_options_from_args) and a config's eval: section
// (cmd_run.cc) both decode into; nothing goes back through flag strings.
// Owned by the command's frame.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/cli/args.h"
#include "base/subprocess.h"
#include "eval/compiler.h"
#include "eval/evaluate.h"
#include "eval/problem_index.h"
#include "eval/worker_launcher.h"

namespace agent {

// Flags shared by eval and problems check.
const std::vector<FlagSpec>& eval_flags();

// How to evaluate, typed; defaults as the README gives them.
struct EvalOptions {
  std::optional<eval::Backend> backend;  // unset: cuda where the worker sees a GPU, else cpu
  std::optional<std::string> size;       // full | small; unset: full on cuda, small on cpu
  int trials = 5;                        // correctness trials
  int timing_trials = 100;               // most timed trials per side
  bool timing = true;
  std::optional<uint64_t> seed;          // unset: random per evaluation
  std::string entropy;                   // --entropy: the judge's secret to reuse (empty: its own)
  int batch_calls = 0;                   // --batch-calls (0: from the reference)
  int threads = 0;                       // cpu threads for reference and candidate; 0 = all
  double timeout = 300;                  // seconds before the worker is killed
  std::string cuda_arch;                 // empty: the GPU's, else 90a
  std::string cache_dir;                 // empty: base::default_cache_dir()
  uint64_t cache_max_bytes = 5ull << 30;  // --cache-max-size, eval.cache_max_size; 0: no limit
  std::string problems_dir;              // empty: eval::default_problems_root()
  std::string profiler;                  // empty (none), cupti or ncu
  std::vector<std::string> metrics;      // empty: profiler::default_metrics()
  bool keep_job_dirs = false;
  bool allow_untrusted = false;
  bool lean_headers = true;              // false: always LibTorch's own umbrella headers
  eval::Mode mode = eval::Mode::refinery;  // --compat
  double max_uncertainty = 0.1;
  int remeasure = 1;
  std::optional<eval::Tolerance> tolerance;  // overrides the problems' own
  eval::StaticPolicy static_checks;      // --static-checks, eval.static_checks
  double quarantine_speedup = 20;        // --quarantine-speedup, eval.quarantine_speedup; 0: no factor
  eval::LibraryOnly library_only = eval::LibraryOnly::correct;  // --library-only, eval.library_only
  bool launch_watch = true;              // --no-launch-watch
  bool timing_trace = false;             // --timing-trace
  std::vector<int> devices;              // cuda: the GPUs evaluations run on; empty: every visible one
  int runners = 1;                       // cpu: evaluations run (and timed) at once
  // Variables whose values are secrets whatever their names (a config's
  // models' api_key_env), besides those named like one (base/redact.h).
  std::vector<std::string> secret_names;
  double compile_memory_gib = 6;         // --compile-memory-gib, eval.compile_memory_gib: each compiler's address space
};

// The flags of eval_flags(), range-checked; a bad value is a usage error.
base::Result<EvalOptions> eval_options_from_args(const Args& args);

struct Context {
  base::SystemProcessRunner runner;
  std::unique_ptr<eval::ProblemIndex> problems;
  std::unique_ptr<eval::CompileService> compiler;
  std::unique_ptr<eval::WorkerLauncher> launcher;
  std::unique_ptr<eval::Evaluator> evaluator;
  eval::EvalSettings settings;
  std::string hardware;   // "NVIDIA H200: 132 SMs, 140 GiB, 4.8 TB/s peak, 60 MiB L2" or the CPU
  std::string compiler_name;  // "nvcc (sm_90a)" or the C++ compiler
  std::vector<int> devices;   // the GPUs (cuda) or runner slots (cpu) the evaluator leases
};

// An Error is an option the machine cannot honour (ncu missing) or a worker that cannot start.
base::Result<std::unique_ptr<Context>> make_context(const EvalOptions& options);

// Just the problem index, for commands that evaluate nothing.
eval::ProblemIndex problem_index(const std::string& problems_dir);

}  // namespace agent
