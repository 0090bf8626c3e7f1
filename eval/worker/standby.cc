#include "eval/worker/standby.h"

#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace eval::worker {
namespace {

// Blocks until `handoff_fd` is readable or the runner ends; false when the runner ended first.
bool wait_for_handoff(int handoff_fd, RunnerLink& runner) {
  // A pidfd is readable once the runner has exited; without one (a kernel
  // before 5.3), the runner is looked at once a second.
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, runner.pid(), 0));
  pollfd fds[2] = {{handoff_fd, POLLIN, 0}, {pidfd, POLLIN, 0}};
  bool runner_alive = true;
  for (;;) {
    int n = poll(fds, pidfd >= 0 ? 2 : 1, pidfd >= 0 ? -1 : 1000);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    if (fds[0].revents) break;
    if ((pidfd >= 0 && fds[1].revents) || !runner.running()) {
      runner_alive = false;
      break;
    }
  }
  if (pidfd >= 0) close(pidfd);
  return runner_alive && runner.running();
}

// One line from `fd`, without its newline; an Error at the end of the stream before it.
base::Result<std::string> read_line(int fd) {
  std::string line;
  char c;
  for (;;) {
    ssize_t n = read(fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return base::Error{std::string("reading the hand-off: ") + std::strerror(errno)};
    if (n == 0) return base::Error{"refinery closed the hand-off without a job"};
    if (c == '\n') return line;
    if (line.size() > 4096) return base::Error{"the hand-off's line is too long"};
    line.push_back(c);
  }
}

}  // namespace

std::string standby_mismatch(const WorkerJob& start, const WorkerJob& job) {
  auto differ = [](const std::string& what, const std::string& job_has, const std::string& standby_has) {
    return "the job's " + what + " is " + job_has + ", the standby's " + standby_has;
  };
  if (job.backend != start.backend) return differ("backend", to_string(job.backend), to_string(start.backend));
  if (job.device != start.device) return differ("device", std::to_string(job.device), std::to_string(start.device));
  if (job.candidate_language != start.candidate_language)
    return differ("language", language(job.candidate_language).name, language(start.candidate_language).name);
  if (job.threads != start.threads)
    return differ("thread count", std::to_string(job.threads), std::to_string(start.threads));
  if (job.scratch_bytes != start.scratch_bytes)
    return differ("scratch size", std::to_string(job.scratch_bytes), std::to_string(start.scratch_bytes));
  if (job.runner_cgroup != start.runner_cgroup || job.runner_cgroup_version != start.runner_cgroup_version ||
      job.runner_memory_bytes != start.runner_memory_bytes)
    return differ("runner cgroup", "'" + job.runner_cgroup + "'", "'" + start.runner_cgroup + "'");
  if (job.result_path != start.result_path || job.progress_path != start.progress_path)
    return differ("result file", job.result_path, start.result_path);
  if (job.profile.tool == Profiler::ncu) return "the job is a profile under Nsight Compute, which starts no runner";
  return "";
}

base::Result<StandbyJob> wait_for_job(const WorkerJob& start, int handoff_fd) {
  TRY_ASSIGN(StartedRunner runner, start_runner(start, runner_root(start)));
  if (!wait_for_handoff(handoff_fd, *runner.link))
    return base::Error{"the standby's runner ended before its job came: " + runner.link->death()};
  TRY_ASSIGN(std::string path, read_line(handoff_fd));
  TRY_ASSIGN(WorkerJob job, read_job_file(path));
  if (auto why = standby_mismatch(start, job); !why.empty())
    return base::Error{"the job does not match the standby: " + why};
  // Dead between the hand-off and now: the job has not begun, and runs afresh.
  if (!runner.link->running())
    return base::Error{"the standby's runner ended before its job came: " + runner.link->death()};
  return StandbyJob{std::move(job), std::move(path), std::move(runner)};
}

}  // namespace eval::worker
