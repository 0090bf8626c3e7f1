// Spawning a child process under resource limits and a hard deadline.
//
// run_process() forks, puts the child in a fresh process group, closes its
// stdin (or gives it the caller's descriptor), gives it exactly the environment in the options (nothing is
// inherited), applies resource limits, optionally moves it into a new network
// namespace, and execs; or, with `start` set, leaves starting the child to
// it (the sandbox, eval/sandbox/sandbox.h, starts it inside its boundary). It
// drains stdout and stderr while the child runs, keeping the head and tail of
// each up to a cap, so a child that floods its output neither blocks nor
// fills memory. At the deadline, and again when the child exits, the whole
// process group is killed with SIGKILL (a child started as the first process
// of its own PID namespace takes everything under it along), so nothing the
// child started outlives it.
//
// Blocking; safe to call from several threads at once (each call owns its
// child). A failure to start the program is an Error; everything the child
// does (exit codes, signals, timeouts) is data in ProcessResult.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace base {

struct ResourceLimit {
  int resource;                 // RLIMIT_* from <sys/resource.h>
  unsigned long long value;     // soft and hard limit
  unsigned long long hard = 0;  // a hard limit above `value`; 0: `value`
};

struct SpawnOptions;
struct ProcessResult;

// A deadline set after the child has started (a standby worker's, which
// waits for its job first): none until start(), then `seconds` from that
// call; end() makes it pass at once. Any thread may call these while
// run_process, on another, watches the child.
class LateDeadline {
 public:
  void start(double seconds);
  void end();
  bool passed(std::chrono::steady_clock::time_point now) const;

 private:
  std::atomic<int64_t> at_ns_{std::numeric_limits<int64_t>::max()};  // steady clock, since its epoch
};

// A child started by someone other than run_process: its pid (the leader of
// its process group, or the first process of its PID namespace), and what to
// do once it is gone (may be empty): run_process calls it after the child
// has been waited for, with the result it is about to return, to add to.
struct StartedChild {
  pid_t pid = -1;
  std::function<void(ProcessResult&)> after;
};
// Starts the child of `options` writing its stdout and stderr to the given
// descriptors; may fill in the result's network_isolated, refused_layers and
// memory cgroup fields.
class ChildStarter {
 public:
  virtual ~ChildStarter() = default;
  virtual Result<StartedChild> start(const SpawnOptions& options, int out_fd, int err_fd,
                                     ProcessResult& result) const = 0;
};

struct SpawnOptions {
  std::vector<std::string> argv;       // argv[0] is the program's path
  std::vector<std::string> env;        // the child's whole environment, "KEY=VALUE"
  std::string cwd;                     // empty: inherit
  double timeout_seconds = 0;          // 0: no deadline
  size_t output_cap_bytes = 64 << 10;  // per stream; head and tail are kept
  bool isolate_network = false;        // try a new network namespace
  std::vector<ResourceLimit> limits;
  // How the child starts; empty: a fork and exec as the caller's user.
  std::shared_ptr<const ChildStarter> start;
  // The child's stdin (the read end of something the caller writes to,
  // later); -1: /dev/null. Only where `start` is empty.
  int stdin_fd = -1;
  // A deadline the caller starts later, besides timeout_seconds (a child
  // killed by it is timed_out too); null: none.
  std::shared_ptr<LateDeadline> late_deadline;
};

struct ProcessResult {
  bool timed_out = false;
  int exit_code = -1;                   // -1 when killed by a signal
  int signal = 0;                       // the terminating signal, 0 if it exited
  std::string out, err;                 // capped: head and tail
  size_t out_bytes = 0, err_bytes = 0;  // total bytes the child wrote
  double wall_seconds = 0;
  double cpu_seconds = 0;  // user + system time of the child and the descendants it waited for
  bool network_isolated = false;
  // Children of a ChildStarter that applies layers (a sandbox): each layer
  // the platform refused ("namespaces: clone refused (...)"); empty when
  // every layer applied.
  std::vector<std::string> refused_layers;
  // Children of a ChildStarter that gives each a memory cgroup of its own (a
  // sandbox with a cgroup cap): the cgroup's cap (0: it had none), why it had
  // none where one was asked for, and whether the cgroup's OOM killer ended a
  // process of it (the child and all it started reached the cap together).
  uint64_t memory_cgroup_bytes = 0;
  std::string memory_cgroup_note;
  bool memory_cgroup_oom = false;
  bool exited_ok() const { return !timed_out && signal == 0 && exit_code == 0; }
};

Result<ProcessResult> run_process(const SpawnOptions& options);

// The narrow interface the compile service and the worker launcher spawn
// through; tests pass a fake. Implementations must be safe to call from
// several threads.
class ProcessSpawner {
 public:
  virtual ~ProcessSpawner() = default;
  virtual Result<ProcessResult> run(const SpawnOptions& options) = 0;
};

// Runs real processes with run_process().
class SystemProcessSpawner : public ProcessSpawner {
 public:
  Result<ProcessResult> run(const SpawnOptions& options) override { return run_process(options); }
};

// "SIGSEGV (segmentation fault)" for a signal number.
std::string describe_signal(int signal);

// For code between fork and exec (async-signal-safe): writes all of data,
// retrying short writes and EINTR, and gives up silently on an error.
void write_fully(int fd, const void* data, size_t n);
// Pointers into `strings`, null-terminated, for execve; `strings` must outlive them.
std::vector<char*> exec_strings(const std::vector<std::string>& strings);

}  // namespace base
