// The judge's side of the runner: starts `refinery-worker --runner` in the
// sandbox with the control block and a socket, and goes on with its own work
// while the runner starts; sends it its job and the candidate library (a
// sealed copy, checked against the compile cache's digest) over that socket,
// at once or, for a runner started ahead of its job (standby.h), once the job
// has come; then waits for its hello, hands it the arena over the same
// socket, and asks it for calls, one at a time, with the judge's own clock
// around each.
//
// Between requests the runner is stopped (SIGSTOP, confirmed by waitid), so
// nothing it left running, a spinning thread say, can share the cores with
// the judge's reference or touch the arena while the judge reads it. A runner
// that dies is reported with its signal; one that hangs is ended by the
// driver's deadline, which kills the judge, whose death kills the runner
// (PR_SET_PDEATHSIG; it is PID 1 of its namespace, so all it started goes
// with it). One killed by its memory cgroup's OOM killer is said to have
// reached its memory cap. The judge's main thread only.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "eval/sandbox/sandbox.h"
#include "eval/worker/arena.h"
#include "eval/worker/channel.h"
#include "eval/worker/device.h"

namespace eval::worker {

struct RunnerStart {
  std::string program;   // refinery-worker (refinery-python-runner for Python), absolute
  std::string root_dir;  // an empty folder the sandbox's root is built on
  std::vector<std::string> env;
  uint64_t scratch_bytes = 256ull << 20;
  std::vector<base::ResourceLimit> limits;
  std::vector<std::string> read_only;  // more folders it sees, read-only, beside the libraries mapped in the judge
  // The runner's memory cgroup (owned by the caller, outliving the link), or
  // null and why there is none (empty: none was asked for).
  const base::MemoryCgroup* cgroup = nullptr;
  std::string no_cgroup_because;
};

// What the runner answered, and how long the judge saw it take.
struct RunnerAnswer {
  Reply result = Reply::failed;
  std::string text;
  std::vector<CallTime> claimed;  // per call, the runner's own clock: a claim
  double window_ms = 0;           // the judge's clock, request to reply
  // The runner's launch watch for this request (cuda): a claim.
  bool watched = false;
  int64_t own_launches = 0, other_launches = 0, graph_launches = 0, streams_created = 0, threads_left = 0;
  double own_kernel_us = 0, other_kernel_us = 0;
  std::string top_other;
};

// The slots of each call of a request, one place of the arena per call.
using CallSlots = std::vector<std::vector<TensorSlot>>;

class RunnerLink {
 public:
  // Starts the runner and returns at once: it sets itself up meanwhile.
  static base::Result<std::unique_ptr<RunnerLink>> start(const RunnerStart& start);
  ~RunnerLink();

  // Sends the runner its job (runner_job(), as text) and the candidate
  // (`candidate_fd`, a sealed copy; the runner gets its own descriptor). Once,
  // before ready(); never blocks.
  base::Status send_job(const std::string& job, int candidate_fd);
  // Whether the runner is still running (false once it has exited: death() says how).
  bool running() { return alive(); }
  pid_t pid() const { return pid_; }

  // Waits for the runner's hello (its device and its filter are ready);
  // filtered() and filter_note() are known from then on.
  base::Status ready();
  // Hands the runner the arena's descriptor over the socket, and waits until it has mapped it.
  base::Status attach(const Arena& arena);

  const eval::SandboxLayers& layers() const { return layers_; }
  bool filtered() const { return filtered_; }
  const std::string& filter_note() const { return filter_note_; }

  // One request. `spin`: wait by spinning (a core is free) rather than sleeping.
  // An Error means the runner is gone; death() then says how.
  // `inputs` and `outputs` have one entry per call (none for load, arm, attach).
  // `checked`: an untimed call whose outputs the judge checks (ControlBlock::checked).
  base::Result<RunnerAnswer> ask(Command command, const CallSlots& inputs, const CallSlots& outputs, bool spin,
                                 bool checked = false);
  // A timed batch: arm, then the calls with the judge's clock around them all.
  base::Result<RunnerAnswer> timed_call(const CallSlots& inputs, const CallSlots& outputs, bool spin);
  std::string death() const;
  int death_signal() const { return signal_; }

  void stop();    // SIGSTOP, and wait until it is stopped
  void resume();  // SIGCONT

 private:
  RunnerLink() = default;
  bool alive();
  base::Result<RunnerAnswer> exchange(bool spin, std::chrono::steady_clock::time_point t0);

  pid_t pid_ = -1;
  const base::MemoryCgroup* cgroup_ = nullptr;  // says whether its OOM killer ended the runner
  bool exited_ = false, stopped_ = false, self_stopped_ = false;
  int signal_ = 0, exit_code_ = 0;
  ControlBlock* block_ = nullptr;
  int control_fd_ = -1;
  int socket_fd_ = -1;  // the judge's end of the socket the job and the arena go over
  uint32_t seq_ = 1;
  uint32_t calls_ = 0;  // of the request in flight
  eval::SandboxLayers layers_;
  bool filtered_ = false;
  std::string filter_note_;
};

// A sealed in-memory copy of the library at `path`, after checking its
// SHA-256 against `digest`; the descriptor to dlopen through /proc/self/fd.
base::Result<int> sealed_library(const std::string& path, const std::string& digest, const char* what);

}  // namespace eval::worker
