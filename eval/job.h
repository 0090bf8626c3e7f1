// The job refinery hands to refinery-worker: everything one evaluation needs,
// resolved (shapes are numbers, draws are parameters), so that the worker
// reads no YAML and knows nothing of problems or configs. Written as JSON to
// the worker's private folder. Plain data.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "eval/build/language.h"
#include "eval/problems/dtype.h"
#include "eval/problems/problem.h"

namespace eval {

enum class Backend { cpu, cuda };
std::string to_string(Backend backend);
base::Result<Backend> parse_backend(const std::string& name);

struct TimingOptions {
  bool enabled = true;
  int warmup = 3;  // calls of each before the first timed trial
  int min_trials = 10;
  int max_trials = 100;
  double target_seconds = 2.0;  // stop after min_trials once this much time is spent
  bool flush_cache = true;      // flush L2 (cuda) or the last-level cache (cpu) before each trial
  // A trial's calls run back to back, each on inputs of its own, until one
  // window holds about this much: the judge's fixed cost per window is shared.
  double batch_ms = 2.0;
  // Calls per window fixed by the job, for measuring how the batch moves the
  // reference (bench/batch_size.sh); 0: sized from the reference's warm-up.
  int batch_calls = 0;
  bool trace = false;  // the result's timing.trace: every window as the judge saw it
  bool operator==(const TimingOptions&) const = default;
};

// The profiling phase (cuda only, after timing, for a correct candidate):
// "cupti" profiles inside the worker; "ncu" makes this a profile-only job run
// under Nsight Compute (see Evaluator); "" profiles nothing.
// Which profiler looks at a correct cuda candidate: `automatic` is cupti in a
// campaign whose strategies ask for profile feedback, else none. A job's is
// never `automatic` (it is resolved before).
enum class Profiler { automatic, none, cupti, ncu };
std::string to_string(Profiler profiler);
base::Result<Profiler> parse_profiler(const std::string& name);

struct ProfileOptions {
  Profiler tool = Profiler::none;
  std::vector<std::string> metrics;
  bool operator==(const ProfileOptions&) const = default;
};

struct WorkerJob {
  std::string problem_id;
  Backend backend = Backend::cpu;
  int device = 0;   // cuda device ordinal
  int threads = 0;  // cpu: intra-op threads, 0 = all cores
  std::string reference_library, candidate_library;
  LanguageId candidate_language = LanguageId::cxx;  // how the runner loads the candidate (language.h)
  std::string reference_digest, candidate_digest;   // SHA-256 of each, from the compile cache
  std::vector<ResolvedInput> inputs;
  // A Python candidate's ModelNew(*python_init): the problem's dims, as the
  // reference's Model takes them (Problem::python_init).
  std::vector<int64_t> python_init;
  std::vector<uint64_t> correctness_seeds;  // one per trial
  uint64_t timing_seed = 0;
  // The judge's secret, mixed into every seed it draws from (the seeds
  // above, which follow from the config's seed, and which timed calls are
  // checked): 32 hex digits. Empty: the judge draws its own from the kernel,
  // as every evaluation does; given only to evaluate a recorded result again
  // with the same inputs (its Outcome::entropy).
  std::string entropy;
  Tolerance tolerance;
  int max_reported_mismatches = 5;
  TimingOptions timing;
  ProfileOptions profile;
  // TF32 in cuDNN's convolutions, for reference and candidate alike: off in
  // refinery's mode (fp32 means fp32), on in KernelBench's (PyTorch's default).
  bool tf32_cudnn = false;
  // cuda: the runner's launch watch (profiler/launch_watch.h), the evidence
  // behind Outcome::kernels; off only to measure what it costs.
  bool launch_watch = true;
  // The runner's sandbox: its scratch /tmp, and whether a run with a layer
  // missing may go on (its outcome then says trusted: false).
  uint64_t scratch_bytes = 256ull << 20;
  bool allow_untrusted = false;
  // The runner's memory cgroup (base/cgroup.h), made by the launcher and
  // removed by it after the judge: the judge moves the runner into it. Empty
  // (runner_cgroup_note says why) where none could be made.
  std::string runner_cgroup;
  int runner_cgroup_version = 0;
  uint64_t runner_memory_bytes = 0;  // its cap
  std::string runner_cgroup_note;
  std::string result_path = "result.json";
  std::string progress_path = "progress.log";
};

// Whether text is a judge's secret as jobs and results carry it: 32 lower-case hex digits.
inline bool is_entropy(const std::string& text) {
  return text.size() == 32 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The exit code of a standby worker (`refinery-worker --standby`,
// eval/worker/standby.h) that ended without judging its job, and wrote no
// result: refinery's launcher then evaluates the job with a fresh worker.
inline constexpr int kStandbyUnusedExit = 4;

nlohmann::json to_json(const WorkerJob& job);
base::Result<WorkerJob> job_from_json(const nlohmann::json& j);
// A job file (refinery-worker's JOB.json, a standby's START.json and its job): an Error names the
// file when it cannot be read or is not a job.
base::Result<WorkerJob> read_job_file(const std::string& path);

}  // namespace eval
