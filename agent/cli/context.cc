#include "agent/cli/context.h"

#include <unistd.h>

#include <cstdio>
#include <thread>

#include "base/fs.h"
#include "base/redact.h"
#include "base/text.h"

namespace agent {

eval::ProblemIndex problem_index(const std::string& problems_dir) {
  return eval::ProblemIndex(problems_dir.empty() ? eval::default_problems_root() : problems_dir);
}

namespace {

struct Probe {
  bool cuda = false;
  int cuda_devices = 0;
  std::string arch;
  std::string hardware;
};

Probe probe_worker(base::ProcessSpawner& spawner, const std::string& worker) {
  base::SpawnOptions o;
  o.argv = {worker, "--probe"};
  o.env = eval::current_environment();
  o.timeout_seconds = 60;
  Probe p;
  auto r = spawner.run(o);
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

base::Result<std::unique_ptr<Context>> make_context(const eval::EvalSettings& settings,
                                                    const std::vector<std::string>& secret_names) {
  auto ctx = std::make_unique<Context>();
  ctx->problems = std::make_unique<eval::ProblemIndex>(problem_index(settings.problems_dir));
  std::string worker = base::executable_dir() + "/refinery-worker";

  eval::EvalSettings& s = ctx->settings;
  s = settings;
  Probe probe = probe_worker(ctx->spawner, worker);
  s.backend = s.asked.backend.value_or(probe.cuda ? eval::Backend::cuda : eval::Backend::cpu);
  s.size = s.asked.size.value_or(s.backend == eval::Backend::cuda ? eval::Size::full : eval::Size::small);
  // Every text of an outcome, and every compile log before the cache stores it, is redacted of these.
  const std::vector<std::string> environment = eval::current_environment();
  s.secrets = base::secrets_from_environment(environment, secret_names);
  for (const auto& name : base::unredactable_secret_names(environment, secret_names))
    std::fprintf(stderr,
                 "refinery: warning: %s holds a value of fewer than %zu characters, too short to redact: "
                 "a candidate that finds it can have it appear in records and prompts\n",
                 name.c_str(), base::Redactor::kMinLength);
  // `auto` here, where no strategy asks for profile feedback, is none (cmd_run.cc resolves a campaign's).
  if (s.asked.profiler == eval::Profiler::cupti || s.asked.profiler == eval::Profiler::ncu) {
    s.profile.tool = s.asked.profiler;
    s.profile.metrics = s.asked.metrics.empty() ? profiler::default_metrics() : s.asked.metrics;
    if (s.asked.profiler == eval::Profiler::ncu) {
      s.ncu_path = base::find_on_path("ncu");
      if (s.ncu_path.empty()) return base::Error{"--profiler ncu: no ncu on PATH"};
    }
  }

  eval::CompileOptions co;
  co.cache_dir = s.compile.cache_dir.empty() ? base::default_cache_dir() : s.compile.cache_dir;
  co.lean_headers = s.compile.lean_headers;
  co.limits.max_bytes = s.compile.cache_max_bytes;
  co.secrets = s.secrets;
  co.sandbox.allow_incomplete = s.allow_untrusted;
  co.sandbox.caps.memory_bytes = static_cast<uint64_t>(s.compile.memory_gib * (1ull << 30));
  co.cuda_arch = !s.compile.cuda_arch.empty() ? s.compile.cuda_arch : probe.arch.empty() ? "90a" : probe.arch;
  ctx->compiler = std::make_unique<eval::CompileService>(eval::build_toolchain(), co, ctx->spawner);

  eval::LaunchOptions lo;
  lo.worker_path = worker;
  lo.scratch_dir = co.cache_dir + "/jobs";
  lo.timeout_seconds = s.launch.timeout;
  lo.keep_job_dirs = s.launch.keep_job_dirs;
  if (s.launch.standby == eval::Standby::on) lo.standby_backends = {eval::Backend::cpu, eval::Backend::cuda};
  if (s.launch.standby == eval::Standby::off) lo.standby_backends.clear();
  // A runaway candidate fails alone instead of waking the OOM killer: its
  // runner's cgroup caps every page it charges, on either backend; CUDA
  // reserves vast address space, so only cpu gets the address-space cap too.
  lo.runner_memory_bytes = eval::default_memory_limit();
  if (s.backend == eval::Backend::cpu) lo.memory_limit_bytes = eval::default_memory_limit();
  ctx->launcher = std::make_unique<eval::WorkerLauncher>(lo, ctx->spawner);
  if (s.backend == eval::Backend::cuda) {
    // Every GPU the worker sees, or those the config lists (each must be one it sees).
    for (int d : s.launch.devices)
      if (d < 0 || d >= probe.cuda_devices)
        return base::Error{"eval.devices lists GPU " + std::to_string(d) + ", but the worker sees " +
                           std::to_string(probe.cuda_devices) + " (CUDA_VISIBLE_DEVICES numbers them from 0)"};
    ctx->devices = s.launch.devices;
    if (ctx->devices.empty())
      for (int d = 0; d < std::max(1, probe.cuda_devices); ++d) ctx->devices.push_back(d);
  } else {
    for (int r = 0; r < std::max(1, s.launch.workers); ++r) ctx->devices.push_back(r);
    // Workers share the cores: each gets its part unless --threads says otherwise.
    if (s.launch.workers > 1 && s.threads == 0)
      s.threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / s.launch.workers);
  }
  ctx->evaluator = std::make_unique<eval::Evaluator>(*ctx->compiler, *ctx->launcher, ctx->devices);
  ctx->hardware = probe.hardware;
  ctx->compiler_name = eval::describe_build(eval::language(eval::language_for(s.backend)).build, co);
  return ctx;
}

}  // namespace agent
