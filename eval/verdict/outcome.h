// The outcome of one evaluation: exactly one status, and the payload that
// explains it. Both refinery-worker (which writes it as JSON) and refinery
// (which reads it, adds compile and process details, and decides the verdict
// when the worker left none) use these types.
//
// Lifecycle of an evaluation and the status each step can end in:
//   compile reference and candidate ....... compile_error
//   start worker, load both libraries ..... load_error
//   correctness trials (candidate first) .. runtime_error, wrong_shape, rejected, mismatch
//   timing, interleaved ................... runtime_error
//   all done .............................. correct
// At any step after the start, the driver may end it as timeout (deadline hit,
// process group killed) or crashed (the worker died without a result).
// Plain data; not synchronised.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/redact.h"
#include "base/result.h"
#include "eval/build/static_checks.h"
#include "profiler/profile.h"

namespace eval {

enum class Status {
  compile_error,
  load_error,
  runtime_error,
  timeout,
  crashed,
  wrong_shape,
  mismatch,
  rejected,
  // Correct at the shown size, not at a hidden shape (EvalSettings::hidden_shapes):
  // Outcome::hidden_shapes says which, and the timing is the shown size's.
  fails_hidden_shape,
  correct,
};

std::string to_string(Status status);
base::Result<Status> parse_status(const std::string& name);

struct Mismatch {
  std::vector<int64_t> index;
  double expected = 0, actual = 0;
};

// Comparison of one output in one correctness trial.
struct TrialDiff {
  int trial = 0;
  int output = 0;
  double max_abs = 0, max_rel = 0;
  int64_t mismatches = 0, elements = 0;
  bool nonfinite = false;  // NaN or Inf where the reference has none
  std::vector<Mismatch> first;
};

struct TimingStats {
  int trials = 0;
  double median_ms = 0, mean_ms = 0, stdev_ms = 0, min_ms = 0, max_ms = 0, p10_ms = 0, p90_ms = 0;
  double host_median_ms = 0;  // host clock around the same trials, for the cross-check
  // A 95% confidence interval of the median, from the trials' order
  // statistics (distribution-free: outliers beyond it do not widen it).
  double median_low_ms = 0, median_high_ms = 0;
  // Relative spread of the trials: (p90 - p10) / median.
  double spread() const { return median_ms > 0 ? (p90_ms - p10_ms) / median_ms : 0; }
  // How well the median is known: the interval's width over the median.
  double median_uncertainty() const { return median_ms > 0 ? (median_high_ms - median_low_ms) / median_ms : 0; }
};

struct Timing {
  TimingStats reference, candidate;
  double speedup = 0;        // reference median / candidate median
  std::string clock;         // "cuda_events" or "steady_clock"
  bool device_wide = false;  // a device-wide end was needed (work on other streams)
  bool l2_flushed = false;
  // The judge's bound on the candidate (docs/judge-and-runner.md): the
  // runner's own median claim, the judge's overhead of one batch (measured
  // on the reference), how many calls the judge's clock raised above the
  // claim, how many timed calls had their outputs checked, and how many calls
  // each side made back to back in one window (each on inputs of its own).
  double claimed_median_ms = 0;
  double judge_overhead_ms = 0;
  // Per call, how far the window's cost strayed when it was calibrated:
  // claims within it of the judge's floors stand, so a runner could shade
  // its claims by up to this unseen. The bound's resolution.
  double judge_slack_ms = 0;
  // The median of the judge's floors, per call: what its clock alone says a
  // call took (its window less the window's cost, shared by the calls).
  double floor_median_ms = 0;
  // What the bound added to every claim, per call (0 when the claims stood).
  double judge_raise_ms = 0;
  // Only when the job asked for it (refinery eval --timing-trace): every
  // window as the judge saw it, for auditing the bound (docs/judge-and-runner.md).
  nlohmann::json trace;
  // A timing whose windows contradict the claims is measured again, on other
  // inputs, up to three timings in all, before the candidate is `rejected`:
  // how many timings before this one were contradicted (0 to 2).
  int contradicted = 0;
  int floored_calls = 0;
  int checked_calls = 0;
  int batch_calls = 1;
  // The candidate's calls cost less than the judge's clock can resolve (the
  // floors' median within the bound's slack of zero): its time is then the
  // judge's whole window per call, an upper bound no claim can lower, so the
  // speedup is a lower bound of the true one.
  bool lower_bound = false;
  // Set by refinery, not the worker (eval::Evaluator): how many worker runs
  // measured this candidate (a timing whose uncertainty was beyond
  // EvalSettings::max_uncertainty is measured again), and whether the one
  // kept is still beyond it.
  int measurements = 1;
  bool unstable = false;
  // How well the speedup is known: the relative widths of both medians'
  // intervals added (to first order, the relative width of the speedup's).
  double uncertainty() const { return reference.median_uncertainty() + candidate.median_uncertainty(); }
};

struct CompileInfo {
  bool ok = false;
  bool cached = false;
  double seconds = 0;
  std::string log;
  std::string command;
  std::string headers;                                // CompiledLibrary::headers: "lean", "full: why", or empty
  std::vector<std::pair<std::string, double>> steps;  // seconds per step, when compiled now
};

// Which kernels the candidate ran (cuda; the runner's launch watch,
// profiler/launch_watch.h, summed by the judge over the calls). Launch counts
// are from every call; the GPU times from the correctness trials (traced,
// untimed); `timed_*` from the timed batches alone. Like the runner's times,
// these are the runner's claims, taken after a check that the watch is still on.
struct KernelEvidence {
  bool watched = false;  // false: no evidence (cpu, or CUPTI refused: `note` says why)
  std::string note;
  int64_t own_launches = 0, other_launches = 0;              // every call
  int64_t timed_own = 0, timed_other = 0, timed_graphs = 0;  // the timed calls
  double own_us = 0, other_us = 0;                           // GPU time in the traced trials
  int64_t streams_created = 0;                               // during the timed calls
  int64_t threads_left = 0;  // the most threads one timed request left running after forward returned
  std::string top_other;     // the most launched kernel not of its own
  // No kernel of its own ran in the timed calls. Kernels in a graph are not
  // seen one by one when it is launched: a timed graph launch counts as its
  // own when the traced trials ran a kernel of its own.
  bool library_only() const { return watched && timed_own == 0 && (timed_graphs == 0 || own_us <= 0); }
  // Its own kernels' share of the GPU time in the traced trials (0 to 1), or -1 when none ran.
  double own_share() const { return own_us + other_us > 0 ? own_us / (own_us + other_us) : -1; }
};

// What eval.library_only does with a correct candidate that ran no kernel of its own.
enum class LibraryOnly {
  count,    // counts like any other
  correct,  // correct, but left out of fast_p for p > 0 and the geomean (the default)
  reject,   // rejected
};
std::optional<LibraryOnly> parse_library_only(const std::string& name);

// A correct cuda candidate's speed of light (speed_of_light.h): the problem's
// bound on this GPU and the share of it the candidate's median time reached.
struct SolFigures {
  double bound_ms = 0;
  double fraction = 0;
  std::string precision;  // whose peak: "fp32", "half", "fp64"
  std::string gpu;        // the peak table's row
};

// A device taken out of the rotation (eval/device_pool.h).
struct RetiredDevice {
  int device = 0;
  std::string reason;  // what the probe said
  std::string during;  // the job after which it was probed ("level1/19")
};

struct Outcome {
  Status status = Status::crashed;
  std::string message;
  std::optional<CompileInfo> compile;  // the candidate's
  std::vector<TrialDiff> trials;
  std::optional<Timing> timing;
  std::vector<std::string> output_shapes;  // the candidate's, as "[4, 8] float32"
  int signal = 0;                          // crashed: the signal, if any
  int exit_code = 0;
  std::string phase;     // the worker's last phase before it ended
  std::string mode;      // "refinery" or "kernelbench" (EvalSettings::mode), set by the driver
  std::string language;  // the candidate's (language.h: "cpp", "cuda", "python"), set by the driver
  // eval.precision, set by the driver when it is not fp32: the precision the
  // problem ran at ("fp16", "bf16", or "fp32" where the problem's spec calls
  // the one asked unfit, with why in precision_note).
  std::string precision, precision_note;
  // The judge's secret for this evaluation (WorkerJob::entropy), 32 hex
  // digits: with the job's seeds it gives every input drawn, so that the
  // evaluation can be repeated (refinery eval --entropy). Drawn afresh for
  // every evaluation, so one seen says nothing of the next.
  std::string entropy;
  std::string stdout_tail, stderr_tail;
  nlohmann::json versions = nlohmann::json::object();
  nlohmann::json phases_ms = nlohmann::json::object();  // where the time went
  bool network_isolated = false;
  // The runner's sandbox: each layer, what was missing, and whether the result
  // is trusted (every layer applied).
  nlohmann::json sandbox = nlohmann::json::object();
  bool trusted = false;
  // The runner was a standby's, started ahead of this job (eval/worker/standby.h).
  bool runner_standby = false;
  std::optional<profiler::Profile> profile;  // when profiling was asked for and the candidate is correct
  // Set by refinery, not the worker (eval::Evaluator): what the static checks
  // found in the source and only warned about (a rejecting finding is the
  // status), and, for a correct candidate, why its speedup is quarantined:
  // above eval.quarantine_speedup or faster than the device could move its
  // inputs and outputs (docs/integrity.md). Empty when it is not.
  std::vector<Finding> static_findings;
  std::string quarantine;
  // Set by the judge on cuda: the kernels the candidate ran.
  std::optional<KernelEvidence> kernels;
  // A correct candidate whose kernels were all another's (KernelEvidence::library_only)
  // under eval.library_only: correct; its speedup is left out of fast_p for p > 0.
  bool library_only = false;
  // Set by refinery for a correct, timed candidate on cuda: its speed of light,
  // or why there is none (no peaks for this GPU, no flops or bytes declared).
  std::optional<SolFigures> sol;
  // The hidden shapes checked after a correct verdict at the shown size:
  // [{"shape": "B=37, D=1000", "dims": {...}, "status": ..., "message": ...}].
  nlohmann::json hidden_shapes = nlohmann::json::array();
  std::string sol_note;
  // Set by refinery (eval::Evaluator, eval/device_pool.h): the device whose
  // worker gave this verdict (-1: none was leased, a correctness-only cpu
  // check), and the devices retired on its way (a failed probe after a
  // suspect outcome; the job then ran again on another device).
  int device = -1;
  std::vector<RetiredDevice> devices_retired;
};

// The message of a correct outcome whose job had timing turned off: the one
// correct outcome without timing.
inline constexpr const char* kTimingDisabledMessage = "correct; timing disabled";
// A profile-only job's (Nsight Compute's run): the verdict is the job's before it.
inline constexpr const char* kProfiledMessage = "profiled under ncu";

nlohmann::json to_json(const Outcome& outcome);
// Decodes what to_json wrote, or what a hostile candidate wrote in its place:
// for any JSON value, a consistent Outcome or an Error naming the member
// ("malformed result: timing.speedup is not ..."); never throws. Strings,
// arrays and numbers are capped, and a correct status needs its timing.
base::Result<Outcome> outcome_from_json(const nlohmann::json& j);

// Replaces every secret in every text the outcome carries: the message, the
// phase, the output tails, the compile log and command, the output shapes,
// the version strings, the sandbox's report and the profile's names and notes.
void redact(Outcome& outcome, const base::Redactor& redactor);

// The keys refinery eval --json promises: status, speedup, candidate_ms,
// reference_ms, message, then the details.
nlohmann::json summary_json(const Outcome& outcome);

}  // namespace eval
