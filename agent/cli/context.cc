#include "agent/cli/context.h"

#include <unistd.h>

#include <cstdio>
#include <thread>

#include "base/fs.h"
#include "base/redact.h"
#include "base/text.h"

namespace agent {

const std::vector<FlagSpec>& eval_flags() {
  static const std::vector<FlagSpec> flags = {
      {"backend", true, "cpu or cuda (default: cuda when a GPU is visible)"},
      {"size", true, "size preset: small or full (default: small on cpu, full on cuda)"},
      {"timeout", true, "seconds before the worker is killed (default 300)"},
      {"trials", true, "correctness trials (default 5)"},
      {"timing-trials", true, "most timed trials of each side (default 100)"},
      {"no-timing", false, "check correctness only"},
      {"no-launch-watch", false, "cuda: no launch watch, so no kernel evidence and no library-only verdict (to measure what it costs)"},
      {"timing-trace", false, "add every timed window as the judge saw it to the result (timing.trace)"},
      {"seed", true, "master seed for the hidden input seeds, mixed with the judge's secret (default: random)"},
      {"entropy", true, "the judge's secret of a recorded result (its \"entropy\"): with its --seed, the same inputs again"},
      {"batch-calls", true, "timed calls per window (default: sized from the reference's warm-up); for benchmarks"},
      {"threads", true, "cpu backend: threads for reference and candidate (default: all)"},
      {"cuda-arch", true, "nvcc target, e.g. 90a (default: the GPU's, else 90a)"},
      {"cache-dir", true, "compile cache (default: ~/.cache/refinery)"},
      {"cache-max-size", true, "the compile cache's size, e.g. 5GiB or 500MB; least recently used compiles go beyond it (default 5GiB; 0: no limit)"},
      {"problems", true, "problems folder (default: $REFINERY_PROBLEMS or the source tree's)"},
      {"profile", false, "cuda: profile a correct candidate and print the profile section"},
      {"profiler", true, "cupti (default) or ncu; implies --profile"},
      {"metrics", true, "comma-separated counters for the profile (default: the speed-of-light set)"},
      {"keep", false, "keep the worker's job folder"},
      {"max-uncertainty", true, "a timing whose speedup is known less well than this (relative) is measured again (default 0.1)"},
      {"remeasure", true, "how many more times an unstable timing is measured (default 1)"},
      {"allow-untrusted", false, "run even where the platform refuses a layer of the sandbox (see refinery doctor)"},
      {"compile-memory-gib", true, "address space of each compiler process, in GiB (default 6); a compile past it is a compile error"},
      {"full-headers", false, "cuda: compile <torch/torch.h> and <torch/extension.h> as LibTorch's own, never lean"},
      {"compat", true, "refinery (default) or kernelbench: evaluate as KernelBench v0.1 does (README)"},
      {"static-checks", true, "RULE=ACTION,... (off, warn, reject) or off: what the candidate's source may do (docs/integrity.md)"},
      {"quarantine-speedup", true, "a correct speedup above this is quarantined until accepted (default 20; 0: no factor)"},
      {"library-only", true, "cuda: count, correct (default: correct, left out of fast_p for p > 0) or reject a candidate that ran no kernel of its own"},
      {"json", false, "print one JSON object per evaluation"},
  };
  return flags;
}

eval::ProblemIndex problem_index(const std::string& problems_dir) {
  return eval::ProblemIndex(problems_dir.empty() ? eval::default_problems_root() : problems_dir);
}

base::Result<EvalOptions> eval_options_from_args(const Args& args) {
  EvalOptions o;
  if (args.has("backend")) {
    auto backend = eval::parse_backend(args.get("backend"));
    if (!backend) return base::usage_error("--backend: " + backend.error().message);
    o.backend = *backend;
  }
  if (args.has("size")) {
    o.size = args.get("size");
    if (*o.size != "full" && *o.size != "small") return base::usage_error("--size must be small or full, not '" + *o.size + "'");
  }
  TRY_ASSIGN(int64_t trials, args.integer("trials", o.trials, 1, 1000));
  TRY_ASSIGN(int64_t timing_trials, args.integer("timing-trials", o.timing_trials, 1, 100000));
  TRY_ASSIGN(int64_t threads, args.integer("threads", o.threads, 0, 1024));
  TRY_ASSIGN(o.timeout, args.number("timeout", o.timeout, 1, 86400));
  TRY_ASSIGN(o.max_uncertainty, args.number("max-uncertainty", o.max_uncertainty, 0, 1000));
  TRY_ASSIGN(o.compile_memory_gib, args.number("compile-memory-gib", o.compile_memory_gib, 1, 1024));
  TRY_ASSIGN(int64_t remeasure, args.integer("remeasure", o.remeasure, 0, 10));
  if (args.has("seed")) {
    TRY_ASSIGN(int64_t seed, args.integer("seed", 0, 0, INT64_MAX));
    o.seed = static_cast<uint64_t>(seed);
  }
  if (args.has("entropy")) {
    o.entropy = args.get("entropy");
    if (!eval::is_entropy(o.entropy))
      return base::usage_error("--entropy must be 32 lower-case hex digits, as a result's \"entropy\" is");
  }
  TRY_ASSIGN(int64_t batch_calls, args.integer("batch-calls", 0, 1, 1 << 16));
  o.batch_calls = static_cast<int>(batch_calls);
  o.trials = static_cast<int>(trials);
  o.timing_trials = static_cast<int>(timing_trials);
  o.threads = static_cast<int>(threads);
  o.remeasure = static_cast<int>(remeasure);
  o.timing = !args.has("no-timing");
  o.launch_watch = !args.has("no-launch-watch");
  o.timing_trace = args.has("timing-trace");
  o.cuda_arch = args.get("cuda-arch");
  o.cache_dir = args.get("cache-dir");
  if (args.has("cache-max-size")) {
    auto bytes = base::parse_bytes(args.get("cache-max-size"));
    if (!bytes)
      return base::usage_error("--cache-max-size must be a size such as 5GiB or 500MB, or 0 for no limit, not '" +
                               args.get("cache-max-size") + "'");
    o.cache_max_bytes = *bytes;
  }
  o.problems_dir = args.get("problems");
  o.keep_job_dirs = args.has("keep");
  o.allow_untrusted = args.has("allow-untrusted");
  o.lean_headers = !args.has("full-headers");
  if (args.has("compat")) {
    auto mode = eval::parse_mode(args.get("compat"));
    if (!mode) return base::usage_error("--compat: " + mode.error().message);
    o.mode = *mode;
  }
  if (args.has("static-checks")) {
    if (auto applied = eval::apply_policy(o.static_checks, args.get("static-checks")); !applied)
      return base::usage_error("--" + applied.error().message);
  }
  TRY_ASSIGN(o.quarantine_speedup, args.number("quarantine-speedup", o.quarantine_speedup, 0, 1e9));
  if (args.has("library-only")) {
    auto choice = eval::parse_library_only(args.get("library-only"));
    if (!choice) return base::usage_error("--library-only must be count, correct or reject, not '" + args.get("library-only") + "'");
    o.library_only = *choice;
  }
  if (args.has("profile") || args.has("profiler")) {
    o.profiler = args.get("profiler", "cupti");
    if (o.profiler != "cupti" && o.profiler != "ncu")
      return base::usage_error("--profiler must be cupti or ncu, not '" + o.profiler + "'");
  }
  for (const auto& m : base::split(args.get("metrics"), ','))
    if (!base::trim(m).empty()) o.metrics.push_back(base::trim(m));
  return o;
}

namespace {

struct Probe {
  bool cuda = false;
  int cuda_devices = 0;
  std::string arch;
  std::string hardware;
};

Probe probe_worker(base::ProcessRunner& runner, const std::string& worker) {
  base::SpawnOptions o;
  o.argv = {worker, "--probe"};
  o.env = eval::current_environment();
  o.timeout_seconds = 60;
  Probe p;
  auto r = runner.run(o);
  if (!r || !r->exited_ok()) return p;
  auto j = nlohmann::json::parse(r->out, nullptr, false);
  if (j.is_discarded()) return p;
  p.hardware = j.value("cpu", "CPU") + ", " + std::to_string(j.value("cpu_cores", 0)) + " cores";
  if (!j.contains("cuda_devices") || j["cuda_devices"].empty()) return p;
  p.cuda = true;
  p.cuda_devices = static_cast<int>(j["cuda_devices"].size());
  const auto& d = j["cuda_devices"][0];
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: %d SMs, %s, %.1f TB/s peak memory bandwidth, %s L2, compute capability %s",
                d.value("name", "GPU").c_str(), d.value("sm_count", 0),
                base::format_bytes(d.value("memory_bytes", 0.0)).c_str(), d.value("peak_bandwidth_gbs", 0.0) / 1000,
                base::format_bytes(d.value("l2_bytes", 0.0)).c_str(), d.value("compute_capability", "?").c_str());
  p.hardware = buf;
  std::string cc = j["cuda_devices"][0].value("compute_capability", "9.0");
  std::string digits;
  for (char c : cc)
    if (c != '.') digits += c;
  // Hopper and later: the arch-specific target, so wgmma and setmaxnreg are available.
  p.arch = digits >= "90" && digits.size() == 2 ? digits + "a" : digits;
  return p;
}

}  // namespace

base::Result<std::unique_ptr<Context>> make_context(const EvalOptions& options) {
  auto ctx = std::make_unique<Context>();
  ctx->problems = std::make_unique<eval::ProblemIndex>(problem_index(options.problems_dir));
  std::string worker = base::executable_dir() + "/refinery-worker";

  eval::EvalSettings& s = ctx->settings;
  Probe probe = probe_worker(ctx->runner, worker);
  s.backend = options.backend.value_or(probe.cuda ? eval::Backend::cuda : eval::Backend::cpu);
  s.size = options.size.value_or(s.backend == eval::Backend::cuda ? "full" : "small");
  s.trials = options.trials;
  s.timing.max_trials = options.timing_trials;
  s.timing.min_trials = std::min(s.timing.min_trials, s.timing.max_trials);
  s.timing.enabled = options.timing;
  s.allow_untrusted = options.allow_untrusted;
  s.seed = options.seed;
  s.entropy = options.entropy;
  s.timing.batch_calls = options.batch_calls;
  s.threads = options.threads;
  s.tolerance = options.tolerance;
  s.max_uncertainty = options.max_uncertainty;
  s.remeasure = options.remeasure;
  s.mode = options.mode;
  s.static_checks = options.static_checks;
  s.quarantine_speedup = options.quarantine_speedup;
  s.library_only = options.library_only;
  s.launch_watch = options.launch_watch;
  s.timing_trace = options.timing_trace;
  // Every text of an outcome, and every compile log before the cache stores it, is redacted of these.
  const std::vector<std::string> environment = eval::current_environment();
  s.secrets = base::secrets_from_environment(environment, options.secret_names);
  for (const auto& name : base::unredactable_secret_names(environment, options.secret_names))
    std::fprintf(stderr,
                 "refinery: warning: %s holds a value of fewer than %zu characters, too short to redact: "
                 "a candidate that finds it can have it appear in records and prompts\n",
                 name.c_str(), base::Redactor::kMinLength);
  if (!options.profiler.empty()) {
    s.profile.tool = options.profiler;
    s.profile.metrics = options.metrics.empty() ? profiler::default_metrics() : options.metrics;
    if (s.profile.tool == "ncu") {
      s.ncu_path = base::find_on_path("ncu");
      if (s.ncu_path.empty()) return base::Error{"--profiler ncu: no ncu on PATH"};
    }
  }

  eval::CompileOptions co;
  co.cache_dir = options.cache_dir.empty() ? base::default_cache_dir() : options.cache_dir;
  co.lean_headers = options.lean_headers;
  co.limits.max_bytes = options.cache_max_bytes;
  co.secrets = s.secrets;
  co.sandbox.allow_incomplete = options.allow_untrusted;
  co.sandbox.caps.memory_bytes = static_cast<uint64_t>(options.compile_memory_gib * (1ull << 30));
  co.cuda_arch = !options.cuda_arch.empty() ? options.cuda_arch : probe.arch.empty() ? "90a" : probe.arch;
  ctx->compiler = std::make_unique<eval::CompileService>(eval::build_toolchain(), co, ctx->runner);

  eval::LaunchOptions lo;
  lo.worker_path = worker;
  lo.scratch_dir = co.cache_dir + "/jobs";
  lo.timeout_seconds = options.timeout;
  lo.keep_job_dirs = options.keep_job_dirs;
  // A runaway candidate fails alone instead of waking the OOM killer: its
  // runner's cgroup caps every page it charges, on either backend; CUDA
  // reserves vast address space, so only cpu gets the address-space cap too.
  lo.runner_memory_bytes = eval::default_memory_limit();
  if (s.backend == eval::Backend::cpu) lo.memory_limit_bytes = eval::default_memory_limit();
  ctx->launcher = std::make_unique<eval::WorkerLauncher>(lo, ctx->runner);
  if (s.backend == eval::Backend::cuda) {
    // Every GPU the worker sees, or those the config lists (each must be one it sees).
    for (int d : options.devices)
      if (d < 0 || d >= probe.cuda_devices)
        return base::Error{"eval.devices lists GPU " + std::to_string(d) + ", but the worker sees " +
                           std::to_string(probe.cuda_devices) + " (CUDA_VISIBLE_DEVICES numbers them from 0)"};
    ctx->devices = options.devices;
    if (ctx->devices.empty())
      for (int d = 0; d < std::max(1, probe.cuda_devices); ++d) ctx->devices.push_back(d);
  } else {
    for (int r = 0; r < std::max(1, options.runners); ++r) ctx->devices.push_back(r);
    // Runners share the cores: each gets its part unless --threads says otherwise.
    if (options.runners > 1 && s.threads == 0)
      s.threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / options.runners);
  }
  ctx->evaluator = std::make_unique<eval::Evaluator>(*ctx->compiler, *ctx->launcher, ctx->devices);
  ctx->hardware = probe.hardware;
  ctx->compiler_name = eval::describe_build(eval::language(eval::language_for(s.backend)).build, co);
  return ctx;
}

}  // namespace agent
