#include "agent/context.h"

#include <unistd.h>

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
      {"seed", true, "master seed for the hidden input seeds (default: random)"},
      {"threads", true, "cpu backend: threads for reference and candidate (default: all)"},
      {"cuda-arch", true, "nvcc target, e.g. 90a (default: the GPU's, else 90a)"},
      {"cache-dir", true, "compile cache (default: ~/.cache/refinery)"},
      {"problems", true, "problems folder (default: $REFINERY_PROBLEMS or the source tree's)"},
      {"profile", false, "cuda: profile a correct candidate and print the profile section"},
      {"profiler", true, "cupti (default) or ncu; implies --profile"},
      {"metrics", true, "comma-separated counters for the profile (default: the speed-of-light set)"},
      {"keep", false, "keep the worker's job folder"},
      {"unstable-spread", true, "a timing spread ((p90-p10)/median) beyond this is measured again (default 0.5)"},
      {"remeasure", true, "how many more times an unstable timing is measured (default 1)"},
      {"allow-untrusted", false, "run even where the platform refuses a layer of the sandbox (see refinery doctor)"},
      {"json", false, "print one JSON object per evaluation"},
  };
  return flags;
}

eval::ProblemIndex problem_index(const Args& args) {
  return eval::ProblemIndex(args.get("problems", eval::default_problems_root()));
}

namespace {

struct Probe {
  bool cuda = false;
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

base::Result<std::unique_ptr<Context>> make_context(const Args& args) {
  auto ctx = std::make_unique<Context>();
  ctx->problems = std::make_unique<eval::ProblemIndex>(problem_index(args));
  std::string worker = base::executable_dir() + "/refinery-worker";

  eval::EvalSettings& s = ctx->settings;
  std::string backend = args.get("backend");
  Probe probe;
  probe = probe_worker(ctx->runner, worker);
  if (backend.empty()) backend = probe.cuda ? "cuda" : "cpu";
  auto parsed_backend = eval::parse_backend(backend);
  if (!parsed_backend) return base::usage_error("--backend: " + parsed_backend.error().message);
  s.backend = *parsed_backend;
  s.size = args.get("size", s.backend == eval::Backend::cuda ? "full" : "small");
  if (s.size != "full" && s.size != "small") return base::usage_error("--size must be small or full, not '" + s.size + "'");
  TRY_ASSIGN(int64_t trials, args.integer("trials", 5, 1, 1000));
  TRY_ASSIGN(int64_t timing_trials, args.integer("timing-trials", 100, 1, 100000));
  TRY_ASSIGN(int64_t threads, args.integer("threads", 0, 0, 1024));
  TRY_ASSIGN(double timeout, args.number("timeout", 300, 1, 86400));
  if (args.has("seed")) {
    TRY_ASSIGN(int64_t seed, args.integer("seed", 0, 0, INT64_MAX));
    s.seed = static_cast<uint64_t>(seed);
  }
  TRY_ASSIGN(s.unstable_spread, args.number("unstable-spread", s.unstable_spread, 0, 1000));
  TRY_ASSIGN(int64_t remeasure, args.integer("remeasure", s.remeasure, 0, 10));
  s.remeasure = static_cast<int>(remeasure);
  s.trials = static_cast<int>(trials);
  s.timing.max_trials = static_cast<int>(timing_trials);
  s.timing.min_trials = std::min(s.timing.min_trials, s.timing.max_trials);
  s.timing.enabled = !args.has("no-timing");
  s.allow_untrusted = args.has("allow-untrusted");
  s.threads = static_cast<int>(threads);
  s.secrets = base::secrets_from_environment(eval::current_environment(), {});
  if (args.has("profile") || args.has("profiler")) {
    s.profile.tool = args.get("profiler", "cupti");
    if (s.profile.tool != "cupti" && s.profile.tool != "ncu")
      return base::usage_error("--profiler must be cupti or ncu, not '" + s.profile.tool + "'");
    s.profile.metrics = eval::default_metrics();
    if (args.has("metrics")) {
      s.profile.metrics.clear();
      for (const auto& m : base::split(args.get("metrics"), ','))
        if (!base::trim(m).empty()) s.profile.metrics.push_back(base::trim(m));
    }
    if (s.profile.tool == "ncu") {
      s.ncu_path = base::find_on_path("ncu");
      if (s.ncu_path.empty()) return base::Error{"--profiler ncu: no ncu on PATH"};
    }
  }

  eval::CompileOptions co;
  co.cache_dir = args.get("cache-dir", base::default_cache_dir());
  co.cuda_arch = args.get("cuda-arch", probe.arch.empty() ? "90a" : probe.arch);
  ctx->compiler = std::make_unique<eval::CompileService>(eval::build_toolchain(), co, ctx->runner);

  eval::LaunchOptions lo;
  lo.worker_path = worker;
  lo.scratch_dir = co.cache_dir + "/jobs";
  lo.timeout_seconds = timeout;
  lo.keep_job_dirs = args.has("keep");
  if (s.backend == eval::Backend::cpu) {
    // A runaway candidate fails alone instead of waking the OOM killer; CUDA
    // reserves vast address space, so the cuda backend gets no such cap.
    uint64_t physical = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
    lo.memory_limit_bytes = physical / 4 * 3;
  }
  ctx->launcher = std::make_unique<eval::WorkerLauncher>(lo, ctx->runner);
  ctx->evaluator = std::make_unique<eval::Evaluator>(*ctx->compiler, *ctx->launcher);
  ctx->hardware = probe.hardware;
  ctx->compiler_name = s.backend == eval::Backend::cuda ? "nvcc (sm_" + co.cuda_arch + ")" : "g++ -O3 -fopenmp";
  return ctx;
}

}  // namespace agent
