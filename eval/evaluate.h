// One candidate's evaluation, end to end: compile the reference and the
// candidate (in parallel, through the cache), build the job with hidden seeds,
// run it in a fresh worker, and return the Outcome with the time each phase
// took. This is what `refinery eval`, `refinery problems check` and (later)
// the campaign scheduler call.
//
// An Error means the evaluation could not be attempted (unknown size preset,
// the reference does not compile, the worker cannot start); everything the
// candidate does is an Outcome. Thread-safe: compiles of concurrent calls
// overlap, and one Evaluator runs one worker at a time on each of its
// devices, so that timings never share a device.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "eval/compiler.h"
#include "eval/device_pool.h"
#include "eval/job.h"
#include "eval/outcome.h"
#include "eval/problem.h"
#include "eval/static_checks.h"
#include "eval/worker_launcher.h"

namespace eval {

// How an evaluation draws, compares and times. refinery's own mode, or
// KernelBench v0.1's (README: KernelBench-compatible mode): U[0,1) activation
// inputs, TF32 in cuDNN as PyTorch's defaults have it, atol = rtol = 1e-2, no
// cache flush between timed calls.
enum class Mode { refinery, kernelbench };
std::string to_string(Mode mode);
base::Result<Mode> parse_mode(const std::string& name);

struct EvalSettings {
  Backend backend = Backend::cpu;
  Mode mode = Mode::refinery;
  std::string size = "small";
  int trials = 5;                       // correctness trials
  TimingOptions timing;
  std::optional<Tolerance> tolerance;   // overrides the problem's and the dtype default
  std::optional<uint64_t> seed;         // master seed for the hidden input seeds; unset = random per evaluation
  // The judge's secret (WorkerJob::entropy): empty, the judge draws its own
  // for every evaluation; set only to repeat a recorded one's inputs.
  std::string entropy;
  int device = 0;
  int threads = 0;
  // Profiling of a correct candidate on cuda: tool "cupti" (inside the worker)
  // or "ncu" (a second, profile-only run under Nsight Compute at ncu_path).
  ProfileOptions profile;
  std::string ncu_path = "ncu";
  // Run even where the platform refuses a layer of the runner's sandbox; the
  // outcome then says trusted: false. Off, such an evaluation is an Error.
  bool allow_untrusted = false;
  // A correct candidate whose timing uncertainty (Timing::uncertainty: the
  // relative widths of both medians' 95% intervals, added) is beyond
  // max_uncertainty is measured again, by a new worker, up to `remeasure`
  // more times; the surest measurement is kept, and if it is still beyond,
  // the timing says unstable (README: unstable timings). A measurement that
  // is not correct replaces the verdict.
  double max_uncertainty = 0.1;
  int remeasure = 1;
  // Values (API keys) replaced by [REDACTED] in every text of the Outcome: a
  // candidate, or the compiler quoting it, may print what it found.
  std::vector<std::string> secrets;
  // What the candidate's source may do (eval/static_checks.h): checked
  // before it is compiled; a rejecting finding is the verdict.
  StaticPolicy static_checks;
  // A correct speedup above this (0: no factor), or below the device's
  // physics floor, is quarantined (eval/quarantine.h).
  double quarantine_speedup = 20;
  // A correct cuda candidate that ran no kernel of its own (Outcome::kernels).
  LibraryOnly library_only = LibraryOnly::correct;
  // cuda: the runner's launch watch (Outcome::kernels); off only to measure what it costs.
  bool launch_watch = true;
  // Every timed window in the result (Timing::trace), for auditing the judge's bound.
  bool timing_trace = false;
};

// KernelBench v0.1's draws, in place: torch.rand (U[0,1)) for every floating
// activation input drawn uniform or normal (weights keep PyTorch's init,
// integer and mask inputs their draws, `then` its structure), or the spec's
// kernelbench_draw where it gives one.
void kernelbench_draws(std::vector<ResolvedInput>& inputs);

// Splits a master seed into per-trial seeds (splitmix64), deterministic for a seed.
std::vector<uint64_t> derive_seeds(uint64_t master, int count);

class Evaluator {
 public:
  // `devices`: the GPUs (or, on the cpu backend, the runner slots) workers
  // run on, one worker at a time on each (eval/device_pool.h).
  Evaluator(CompileService& compiler, WorkerLauncher& launcher, std::vector<int> devices = {0})
      : compiler_(compiler), launcher_(launcher), pool_(std::move(devices)) {}

  base::Result<Outcome> evaluate(const Problem& problem, const std::string& candidate_source,
                                 const EvalSettings& settings);

  // The reference against itself (one library, two runs on the same inputs),
  // for `refinery problems check`: it must agree with itself and is timed.
  // `library`, when given, is the reference compiled already (compile_references).
  base::Result<Outcome> evaluate_reference(const Problem& problem, const EvalSettings& settings,
                                           const CompiledLibrary* library = nullptr);

  // The references of many problems compiled together, in their order
  // (CompileService::compile_batch): for checking a suite.
  base::Result<std::vector<CompiledLibrary>> compile_references(const std::vector<Problem>& problems,
                                                                const EvalSettings& settings);

  // Compiles the problem's reference through the cache, with no worker run:
  // callers compile many in parallel ahead of evaluating them one at a time.
  base::Result<CompiledLibrary> compile_reference(const Problem& problem, const EvalSettings& settings);

 private:
  base::Result<Outcome> run_worker(const Problem& problem, const CompiledLibrary& reference,
                                   const CompiledLibrary& candidate, LanguageId candidate_language,
                                   const EvalSettings& settings);
  base::Result<Outcome> measure(const Problem& problem, const WorkerJob& job, const EvalSettings& settings);
  // The ncu adapter's run: the profile, or a note saying why there is none.
  profiler::Profile profile_with_ncu(const WorkerJob& timed_job, const EvalSettings& settings);

  CompileService& compiler_;
  WorkerLauncher& launcher_;
  DevicePool pool_;  // a device is leased while a worker runs, but for correctness-only runs on the cpu backend
};

// The tolerance in force: settings, else KernelBench's 1e-2 in its mode, else
// the problem's, else the default of the first floating input's dtype (fp32
// when there is none).
Tolerance effective_tolerance(const Problem& problem, const EvalSettings& settings);

}  // namespace eval
