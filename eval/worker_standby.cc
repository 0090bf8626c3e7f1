// WorkerLauncher's standbys (worker_launcher.h, "Standbys"): a worker started
// with `refinery-worker --standby` ahead of its job (eval/worker/standby.h),
// watched by a thread of its own until it ends, and handed one job's path
// over its stdin.
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>

#include "base/fs.h"
#include "base/text.h"
#include "eval/build/language.h"
#include "eval/worker_launcher.h"

namespace eval {
namespace fs = std::filesystem;
using base::Error;
using base::Result;

struct WorkerLauncher::Standby {
  std::string dir;
  WorkerJob start;  // what it was started for: its key, its runner's cgroup, its result's paths
  std::unique_ptr<base::MemoryCgroup> cgroup;
  int handoff_fd = -1;  // refinery's end of the worker's stdin
  std::shared_ptr<base::LateDeadline> deadline = std::make_shared<base::LateDeadline>();
  std::future<Result<base::ProcessResult>> process;  // ready once the worker has ended
  bool keep_dir = false;

  bool ended() const {
    return process.valid() && process.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  }

  // Ends the worker if it still waits (its runner goes with it), then removes its cgroup and folder.
  ~Standby() {
    if (handoff_fd >= 0) close(handoff_fd);  // the worker reads the end of its stdin, and leaves
    if (process.valid()) {
      deadline->end();
      process.wait();
    }
    cgroup.reset();
    if (!keep_dir && !dir.empty()) {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  }
};

WorkerLauncher::WorkerLauncher(LaunchOptions options, base::ProcessSpawner& spawner)
    : options_(std::move(options)), spawner_(spawner) {
  // The worker runs inside its job folder: every path handed to it is absolute.
  options_.scratch_dir = fs::absolute(options_.scratch_dir).string();
}

Result<Outcome> WorkerLauncher::run(const WorkerJob& job, const std::vector<std::string>& wrapper,
                                    const std::string& read_back, std::string* read_back_text) {
  const bool standby_kind = takes_standby(job, wrapper);
  std::optional<Outcome> outcome;
  if (standby_kind) {
    if (auto standby = take_standby(key_of(job))) {
      TRY_ASSIGN(outcome, run_on_standby(*standby, job));
    }
  }
  if (!outcome) {
    TRY_ASSIGN(outcome, run_fresh(job, wrapper, read_back, read_back_text));
  }
  // For the next job of this kind, started once this one has ended, so that it shares no cores with it.
  if (standby_kind) keep_standby(key_of(job));
  return std::move(outcome).value();
}

WorkerLauncher::~WorkerLauncher() {
  std::lock_guard<std::mutex> lock(standby_mutex_);
  standbys_.clear();
}

size_t WorkerLauncher::standbys() const {
  std::lock_guard<std::mutex> lock(standby_mutex_);
  return standbys_.size();
}

WorkerLauncher::StandbyKey WorkerLauncher::key_of(const WorkerJob& job) {
  return {job.backend, job.device, job.candidate_language, job.threads, job.scratch_bytes};
}

bool WorkerLauncher::takes_standby(const WorkerJob& job, const std::vector<std::string>& wrapper) const {
  const auto& backends = options_.standby_backends;
  return wrapper.empty() && job.profile.tool != Profiler::ncu &&
         language(job.candidate_language).loader == Loader::python &&
         std::find(backends.begin(), backends.end(), job.backend) != backends.end();
}

void WorkerLauncher::keep_standby(const StandbyKey& key) {
  std::lock_guard<std::mutex> lock(standby_mutex_);
  if (standbys_.count(key)) return;
  // One that cannot start leaves none: the next job runs as it would without.
  if (auto started = start_standby(key)) standbys_[key] = std::move(started).value();
}

std::unique_ptr<WorkerLauncher::Standby> WorkerLauncher::take_standby(const StandbyKey& key) {
  std::unique_ptr<Standby> taken;
  {
    std::lock_guard<std::mutex> lock(standby_mutex_);
    auto it = standbys_.find(key);
    if (it == standbys_.end()) return nullptr;
    taken = std::move(it->second);
    standbys_.erase(it);
  }
  if (taken->ended()) return nullptr;  // died while it waited: discarded
  return taken;
}

Result<std::unique_ptr<WorkerLauncher::Standby>> WorkerLauncher::start_standby(const StandbyKey& key) {
  auto s = std::make_unique<Standby>();
  s->keep_dir = options_.keep_job_dirs;
  TRY_ASSIGN(s->dir, base::make_temp_dir(options_.scratch_dir, "standby"));
  WorkerJob& start = s->start;
  start.backend = key.backend;
  start.device = key.device;
  start.candidate_language = key.language;
  start.threads = key.threads;
  start.scratch_bytes = key.scratch_bytes;
  s->cgroup = make_runner_cgroup(start);
  start.result_path = (fs::path(s->dir) / "result.json").string();
  start.progress_path = (fs::path(s->dir) / "progress.log").string();
  const std::string start_path = (fs::path(s->dir) / "standby.json").string();
  TRY(base::write_file(start_path, to_json(start).dump(2)));
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
    return Error{std::string("a standby's hand-off: ") + std::strerror(errno)};
  s->handoff_fd = pair[0];
  base::SpawnOptions o = spawn_options(s->dir, key.threads);
  o.argv = {options_.worker_path, "--standby", start_path};
  o.timeout_seconds = 0;  // its deadline starts with the hand-off
  o.late_deadline = s->deadline;
  o.stdin_fd = pair[1];
  s->process = std::async(std::launch::async, [this, o, worker_end = pair[1]] {
    auto result = spawner_.run(o);
    close(worker_end);
    return result;
  });
  return s;
}

Result<std::optional<Outcome>> WorkerLauncher::run_on_standby(Standby& s, const WorkerJob& input_job) {
  WorkerJob job = input_job;
  job.runner_cgroup = s.start.runner_cgroup;
  job.runner_cgroup_version = s.start.runner_cgroup_version;
  job.runner_cgroup_note = s.start.runner_cgroup_note;
  job.runner_memory_bytes = s.start.runner_memory_bytes;
  job.result_path = s.start.result_path;
  job.progress_path = s.start.progress_path;
  TRY_ASSIGN(std::string job_path, write_job(job, s.dir));
  s.deadline->start(options_.timeout_seconds);
  const auto handed = std::chrono::steady_clock::now();
  const std::string line = job_path + "\n";
  if (send(s.handoff_fd, line.data(), line.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(line.size()))
    return std::optional<Outcome>();  // it is gone: the job runs afresh
  auto p = s.process.get();
  // A worker that did not judge the job (its runner died before its hello,
  // or the job did not match: it says why on stderr) wrote no result and
  // leaves the job to a fresh one; so does one that could not be watched.
  // One that ended before it began (no progress) is treated alike.
  auto progress = base::read_file(job.progress_path);
  const bool began = progress && !progress->empty();
  if (!p || (!fs::exists(job.result_path) && (p->exit_code == kStandbyUnusedExit || !began)))
    return std::optional<Outcome>();
  Outcome outcome = read_outcome(*p, job);
  outcome.runner_standby = true;
  outcome.phases_ms["worker_wall"] =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - handed).count();
  return std::optional<Outcome>(std::move(outcome));
}

}  // namespace eval
