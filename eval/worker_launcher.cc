#include "eval/worker_launcher.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "base/fs.h"
#include "base/text.h"

extern char** environ;

namespace eval {
namespace fs = std::filesystem;
using base::Error;
using base::Result;

namespace {

bool allowlisted(const std::string& key) {
  static const char* exact[] = {"PATH", "LANG", "LC_ALL", "TZ", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES",
                                "CUDA_DEVICE_ORDER", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES",
                                "CUDA_MODULE_LOADING", "CUDA_CACHE_PATH",
                                // Kept set on shared multi-GPU hosts: multicast can take GPUs down.
                                "NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS"};
  for (const char* e : exact)
    if (key == e) return true;
  return false;
}

bool looks_secret(const std::string& key) {
  std::string upper = key;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  for (const char* word : {"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH", "COOKIE"})
    if (upper.find(word) != std::string::npos) return true;
  return false;
}

std::string last_line(const std::string& path) {
  auto text = base::read_file(path);
  if (!text) return "";
  return base::trim(base::last_lines(*text, 1));
}

}  // namespace

std::vector<std::string> current_environment() {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) out.emplace_back(*e);
  return out;
}

std::vector<std::string> worker_environment(const std::vector<std::string>& parent, const std::string& job_dir,
                                            int threads) {
  std::vector<std::string> env;
  for (const auto& kv : parent) {
    auto eq = kv.find('=');
    if (eq == std::string::npos) continue;
    std::string key = kv.substr(0, eq);
    if (allowlisted(key) && !looks_secret(key)) env.push_back(kv);
  }
  env.push_back("HOME=" + job_dir);
  env.push_back("TMPDIR=" + job_dir);
  if (threads > 0) env.push_back("OMP_NUM_THREADS=" + std::to_string(threads));
  return env;
}

uint64_t default_memory_limit() {
  const uint64_t physical =
      static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGE_SIZE));
  return physical / 4 * 3;
}

std::unique_ptr<base::MemoryCgroup> WorkerLauncher::make_runner_cgroup(WorkerJob& job) const {
  if (options_.runner_memory_bytes == 0) return nullptr;
  std::unique_ptr<base::MemoryCgroup> cgroup;
  auto made = base::MemoryCgroup::create(base::cgroup_parent(), "refinery-runner-" + std::to_string(getpid()),
                                         options_.runner_memory_bytes);
  if (made) {
    cgroup = std::move(made).value();
    job.runner_cgroup = cgroup->path();
    job.runner_cgroup_version = cgroup->version();
  } else {
    job.runner_cgroup_note = made.error().message;
  }
  job.runner_memory_bytes = options_.runner_memory_bytes;
  return cgroup;
}

base::SpawnOptions WorkerLauncher::spawn_options(const std::string& dir, int threads) const {
  base::SpawnOptions o;
  o.env = worker_environment(current_environment(), dir, threads);
  o.cwd = dir;
  o.timeout_seconds = options_.timeout_seconds;
  o.output_cap_bytes = options_.output_cap_bytes;
  o.isolate_network = options_.isolate_network;
  o.limits = {{RLIMIT_CORE, 0}, {RLIMIT_FSIZE, options_.file_size_limit_bytes}, {RLIMIT_NOFILE, 4096}};
  if (options_.memory_limit_bytes) o.limits.push_back({RLIMIT_AS, options_.memory_limit_bytes});
  return o;
}

Result<std::string> WorkerLauncher::write_job(const WorkerJob& job, const std::string& dir) const {
  std::string job_path = (fs::path(dir) / "job.json").string();
  TRY(base::write_file(job_path, to_json(job).dump(2)));
  // The worker deletes job.json before the candidate runs; a kept folder keeps
  // a copy so the job can be rerun by hand (refinery-worker job.kept.json).
  if (options_.keep_job_dirs) TRY(base::write_file(dir + "/job.kept.json", to_json(job).dump(2)));
  return job_path;
}

Result<Outcome> WorkerLauncher::run_fresh(const WorkerJob& input_job, const std::vector<std::string>& wrapper,
                                          const std::string& read_back, std::string* read_back_text) {
  TRY_ASSIGN(std::string dir, base::make_temp_dir(options_.scratch_dir, "job"));
  WorkerJob job = input_job;
  // The runner's cgroup lives as long as this call: removed (anything left in
  // it killed) however the judge ends. Its name says which refinery made it.
  std::unique_ptr<base::MemoryCgroup> cgroup = make_runner_cgroup(job);
  job.result_path = (fs::path(dir) / "result.json").string();
  job.progress_path = (fs::path(dir) / "progress.log").string();
  TRY_ASSIGN(std::string job_path, write_job(job, dir));

  base::SpawnOptions o = spawn_options(dir, job.threads);
  for (std::string w : wrapper) {
    if (auto at = w.find("{dir}"); at != std::string::npos) w.replace(at, 5, dir);
    o.argv.push_back(w);
  }
  o.argv.push_back(options_.worker_path);
  o.argv.push_back(job_path);
  TRY_ASSIGN(base::ProcessResult p, spawner_.run(o));
  Outcome outcome = read_outcome(p, job);
  outcome.phases_ms["worker_wall"] = p.wall_seconds * 1000;
  if (read_back_text && !read_back.empty()) {
    auto text = base::read_file((fs::path(dir) / read_back).string());
    *read_back_text = text ? *text : "";
  }
  if (!options_.keep_job_dirs) {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  return outcome;
}

Outcome WorkerLauncher::read_outcome(const base::ProcessResult& p, const WorkerJob& job) const {
  Outcome outcome;
  std::string phase = last_line(job.progress_path);
  auto result_text = base::read_file(job.result_path);
  bool have_result = false;
  // A worker that ended on its own left its verdict; one killed by the
  // deadline only counts while profiling (the judge wrote its verdict before
  // the profile, run_job.cc): then just the profile is lost.
  if (result_text && (!p.timed_out || phase == "profile")) {
    auto parsed = nlohmann::json::parse(*result_text, nullptr, false);
    auto decoded = parsed.is_discarded() ? Result<Outcome>(Error{"result is not JSON"}) : outcome_from_json(parsed);
    if (!p.timed_out && decoded) {
      outcome = std::move(decoded).value();
      have_result = true;
    } else if (!p.timed_out) {
      outcome.status = Status::crashed;
      outcome.message = "the worker wrote a malformed result: " + decoded.error().message;
    } else if (decoded && decoded->status == Status::correct) {
      outcome = std::move(decoded).value();
      outcome.message += "; the profile did not finish within " + base::format_ms(options_.timeout_seconds * 1000) +
                         " and was cut off (the verdict stands)";
      have_result = true;
    }
  }
  if (!have_result && outcome.message.empty()) {
    std::string where = phase.empty() ? "" : " during " + phase;
    if (p.timed_out) {
      outcome.status = Status::timeout;
      outcome.message =
          "did not finish within " + base::format_ms(options_.timeout_seconds * 1000) + "; killed" + where;
    } else if (p.signal) {
      outcome.status = Status::crashed;
      outcome.message = "the worker was killed by " + base::describe_signal(p.signal) + where;
    } else {
      outcome.status = Status::crashed;
      outcome.message = "the worker exited with code " + std::to_string(p.exit_code) + " without a result" + where;
    }
    std::string tail = base::last_lines(p.err, 3);
    if (!tail.empty() && !p.timed_out) outcome.message += ": " + tail;
  }
  if (!have_result) {  // else the judge's own verdict says which signal ended the runner
    outcome.signal = p.signal;
    outcome.exit_code = p.exit_code;
  }
  outcome.phase = phase;
  outcome.stdout_tail = base::head_and_tail(p.out, 4096);
  outcome.stderr_tail = base::head_and_tail(p.err, 4096);
  if (p.out_bytes > p.out.size()) outcome.stdout_tail += "\n[stdout: " + std::to_string(p.out_bytes) + " bytes in all]";
  // The judge reports the runner's sandbox; without a result, the judge's own namespace.
  if (!have_result) outcome.network_isolated = p.network_isolated;
  return outcome;
}

}  // namespace eval
