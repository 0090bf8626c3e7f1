#include "base/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <utility>

#include "base/fs.h"
#include "base/text.h"

namespace base {
namespace {

// Keeps the first cap/2 bytes and a rolling window of the last cap/2 bytes.
class CappedBuffer {
 public:
  explicit CappedBuffer(size_t cap) : head_cap_(cap / 2), tail_cap_(cap - cap / 2) {}
  void append(const char* data, size_t n) {
    total_ += n;
    size_t to_head = std::min(n, head_cap_ - std::min(head_cap_, head_.size()));
    head_.append(data, to_head);
    data += to_head;
    n -= to_head;
    if (n == 0) return;
    tail_.append(data, n);
    if (tail_.size() > 2 * tail_cap_) tail_.erase(0, tail_.size() - tail_cap_);
  }
  std::string text() const {
    std::string tail = tail_.size() > tail_cap_ ? tail_.substr(tail_.size() - tail_cap_) : tail_;
    size_t dropped = total_ - head_.size() - tail.size();
    if (dropped == 0) return head_ + tail;
    return head_ + "\n[... " + std::to_string(dropped) + " bytes omitted ...]\n" + tail;
  }
  size_t total() const { return total_; }

 private:
  size_t head_cap_, tail_cap_;
  std::string head_, tail_;
  size_t total_ = 0;
};

// Runs in the forked child: only async-signal-safe calls from here to exec.
[[noreturn]] void exec_child(const SpawnOptions& o, char* const* argv, char* const* envp, int out_fd, int err_fd,
                             int status_fd) {
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  int in = o.stdin_fd >= 0 ? o.stdin_fd : open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (in >= 0) dup2(in, 0);
  dup2(out_fd, 1);
  dup2(err_fd, 2);
  // Nothing else the parent holds reaches the child: close every descriptor
  // above stderr except the status pipe (close-on-exec, needed until exec).
  if (status_fd > 3) syscall(SYS_close_range, 3u, static_cast<unsigned>(status_fd - 1), 0u);
  syscall(SYS_close_range, static_cast<unsigned>(status_fd + 1), ~0u, 0u);
  char isolated = 'n';
  if (o.isolate_network) {
    if (unshare(CLONE_NEWNET) == 0 || unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0) isolated = 'y';
  }
  write_fully(status_fd, &isolated, 1);
  for (const auto& limit : o.limits) {
    struct rlimit rl = {static_cast<rlim_t>(limit.value), static_cast<rlim_t>(std::max(limit.value, limit.hard))};
    setrlimit(limit.resource, &rl);
  }
  if (!o.cwd.empty() && chdir(o.cwd.c_str()) != 0) {
    int e = errno;
    write_fully(status_fd, "c", 1);
    write_fully(status_fd, &e, sizeof e);
    _exit(127);
  }
  execve(argv[0], argv, envp);
  int e = errno;
  write_fully(status_fd, "x", 1);
  write_fully(status_fd, &e, sizeof e);
  _exit(127);
}

}  // namespace

void LateDeadline::start(double seconds) {
  auto at = std::chrono::steady_clock::now() +
            std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  at_ns_.store(std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count());
}

void LateDeadline::end() {
  at_ns_.store(std::numeric_limits<int64_t>::min());
}

bool LateDeadline::passed(std::chrono::steady_clock::time_point now) const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count() >= at_ns_.load();
}

void write_fully(int fd, const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    p += w;
    n -= static_cast<size_t>(w);
  }
}

std::vector<char*> exec_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

std::string describe_signal(int signal) {
  const char* names[] = {"",        "SIGHUP",  "SIGINT",    "SIGQUIT", "SIGILL",  "SIGTRAP", "SIGABRT",
                         "SIGBUS",  "SIGFPE",  "SIGKILL",   "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE",
                         "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP",
                         "SIGTTIN", "SIGTTOU", "SIGURG",    "SIGXCPU", "SIGXFSZ"};
  std::string name = signal > 0 && signal < 26 ? names[signal] : "signal " + std::to_string(signal);
  const char* what = strsignal(signal);
  return what ? name + " (" + what + ")" : name;
}

namespace {

// Forks and execs as refinery's user; the child's pid, or why it did not start.
Result<StartedChild> start_forked(const SpawnOptions& o, int out_fd, int err_fd, ProcessResult& r) {
  int status_pipe[2];
  if (pipe2(status_pipe, O_CLOEXEC) != 0) return Error{std::string("pipe: ") + std::strerror(errno)};
  std::vector<char*> argv = exec_strings(o.argv), envp = exec_strings(o.env);
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(status_pipe[0]);
    close(status_pipe[1]);
    return Error{std::string("fork: ") + std::strerror(e)};
  }
  if (pid == 0) exec_child(o, argv.data(), envp.data(), out_fd, err_fd, status_pipe[1]);
  setpgid(pid, pid);  // also from the parent, so the group exists before any kill
  close(status_pipe[1]);
  // The status pipe: one byte for the network namespace, then an exec error if any.
  std::string status;
  char buf[256];
  for (ssize_t n; (n = read(status_pipe[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    status.append(buf, static_cast<size_t>(n));
  }
  close(status_pipe[0]);
  r.network_isolated = !status.empty() && status[0] == 'y';
  if (status.size() >= 1 + 1 + sizeof(int)) {
    int e;
    std::memcpy(&e, status.data() + 2, sizeof e);
    kill(-pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    std::string what = status[1] == 'c' ? "cannot enter " + o.cwd : "cannot execute " + o.argv[0];
    return Error{what + ": " + std::strerror(e)};
  }
  return StartedChild{pid, {}};
}

}  // namespace

Result<ProcessResult> run_process(const SpawnOptions& o) {
  if (o.argv.empty()) return Error{"run_process: empty argv"};
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return Error{std::string("pipe: ") + std::strerror(errno)};
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    int e = errno;
    close(out_pipe[0]);
    close(out_pipe[1]);
    return Error{std::string("pipe: ") + std::strerror(e)};
  }
  ProcessResult r;
  auto start = std::chrono::steady_clock::now();
  Result<StartedChild> started =
      o.start ? o.start->start(o, out_pipe[1], err_pipe[1], r) : start_forked(o, out_pipe[1], err_pipe[1], r);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (!started) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    return started.error();
  }
  // Once the child is gone, before the result is returned; on any way out.
  struct After {
    std::function<void(ProcessResult&)> f;
    ProcessResult& r;
    void operator()() {
      if (f) std::exchange(f, nullptr)(r);
    }
    ~After() { (*this)(); }
  } after{std::move(started->after), r};
  const pid_t pid = started->pid;

  CappedBuffer out(o.output_cap_bytes), err(o.output_cap_bytes);
  char buf[65536];
  struct pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  bool exited = false;
  int wstatus = 0;
  struct rusage usage {};
  std::chrono::steady_clock::time_point exit_time;
  auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(o.timeout_seconds));
  while (!exited || open_fds > 0) {
    if (!exited) {
      pid_t w = wait4(pid, &wstatus, WNOHANG, &usage);
      if (w == pid) {
        exited = true;
        exit_time = std::chrono::steady_clock::now();
        // Nothing the child started may outlive it, nor hold its pipes open.
        kill(-pid, SIGKILL);
      }
    }
    auto now = std::chrono::steady_clock::now();
    if (!exited && ((o.timeout_seconds > 0 && now >= deadline) || (o.late_deadline && o.late_deadline->passed(now)))) {
      r.timed_out = true;
      // The group; and a child started as its PID namespace's first
      // process, whose death takes every process in it.
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      wait4(pid, &wstatus, 0, &usage);
      exited = true;
      exit_time = now;
    }
    // A grandchild that left the group may hold the pipes: drain for a moment, no longer.
    if (exited && now - exit_time > std::chrono::seconds(1)) break;
    if (open_fds == 0) {
      if (!exited) usleep(2000);
      continue;
    }
    int ready = poll(fds, 2, exited ? 50 : 5);
    if (ready <= 0) {
      if (exited) break;  // the group is dead; whatever is left is not coming
      continue;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        (i == 0 ? out : err).append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  if (WIFEXITED(wstatus)) r.exit_code = WEXITSTATUS(wstatus);
  if (WIFSIGNALED(wstatus)) r.signal = WTERMSIG(wstatus);
  r.out = out.text();
  r.err = err.text();
  r.out_bytes = out.total();
  r.err_bytes = err.total();
  after();
  return r;
}

}  // namespace base
