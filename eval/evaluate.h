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
#include "eval/build/compiler.h"
#include "eval/build/static_checks.h"
#include "eval/device_pool.h"
#include "eval/job.h"
#include "eval/problems/problem.h"
#include "eval/settings.h"
#include "eval/verdict/outcome.h"
#include "eval/worker_launcher.h"

namespace eval {

// KernelBench v0.1's draws, in place: torch.rand (U[0,1)) for every floating
// activation input drawn uniform or normal (weights keep PyTorch's init,
// integer and mask inputs their draws, `then` its structure), or the spec's
// kernelbench_draw where it gives one.
void kernelbench_draws(std::vector<ResolvedInput>& inputs);
// eval.precision: every float32 tensor input and weight becomes `precision`
// (its draw made as before, then cast: the worker draws in a type its kernels
// support and converts); float32 leaves them.
void apply_precision(std::vector<ResolvedInput>& inputs, DType precision);
// The precision `problem` runs at when eval.precision is `asked`: asked,
// unless the problem's spec calls it unfit (Problem::unfit_precisions): then
// fp32, and *why (if given) says why.
DType precision_for(const Problem& problem, DType asked, std::string* why = nullptr);

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
  // `build`: the candidate's compile job, for a Python candidate (whose
  // build runs the module at the job's shapes when it uses Triton: each
  // hidden shape gets a build of its own); null for a C++ candidate.
  base::Result<Outcome> run_worker(const Problem& problem, const CompiledLibrary& reference,
                                   const CompiledLibrary& candidate, LanguageId candidate_language,
                                   const EvalSettings& settings, const CompileJob* build = nullptr);
  base::Result<Outcome> measure(const Problem& problem, const WorkerJob& job, const EvalSettings& settings,
                                const CompileJob* build);
  // The ncu adapter's run: the profile, or a note saying why there is none.
  profiler::Profile profile_with_ncu(const WorkerJob& timed_job, const EvalSettings& settings);
  base::Status check_hidden_shapes(const Problem& problem, const WorkerJob& job, const EvalSettings& settings,
                                   const CompileJob* build, Outcome& outcome);

  CompileService& compiler_;
  WorkerLauncher& launcher_;
  DevicePool pool_;  // a device is leased while a worker runs, but for correctness-only runs on the cpu backend
};

// The tolerance in force: KernelBench's 1e-2 in its mode, else the problem's,
// else the default of the first floating input's dtype (fp32 when there is
// none); then settings.atol and settings.rtol, each over its own half.
Tolerance effective_tolerance(const Problem& problem, const EvalSettings& settings);

// The worker job of one evaluation, built from the settings here and nowhere
// else: the compat mode's changes (draws, TF32, no cache flush, tolerance)
// are applied last, over what the settings gave. `master_seed` gives the
// correctness and timing seeds.
WorkerJob make_job(const Problem& problem, const EvalSettings& settings, std::vector<ResolvedInput> inputs,
                   const CompiledLibrary& reference, const CompiledLibrary& candidate, LanguageId candidate_language,
                   uint64_t master_seed);

}  // namespace eval
