// Starting an untrusted program inside a boundary: the runner of model code,
// and every compiler and build step (through run_process: SandboxStarter below,
// which can give each child a memory cgroup of its own).
//
// spawn_sandboxed() clones a child into new PID, mount, network, IPC and UTS
// namespaces (inside a new user namespace when the caller is not root),
// builds it a root of its own on a tmpfs (the view's system folders and
// read-only paths bound read-only, its read-write folders bound writable on
// top, a fresh /proc of its PID namespace, a /dev holding only the view's
// nodes, one size-capped scratch tmpfs at /tmp, which is also HOME and the
// default working folder), pivots into it and detaches the old root, starts
// a new session, raises its OOM score if asked, drops to an unprivileged
// identity (uid/gid `uid` when the caller is root; otherwise the user
// namespace's root with every capability dropped and SECBIT_NOROOT locked),
// sets no_new_privs, the resource limits and PR_SET_PDEATHSIG, keeps only the
// descriptors named, and execs. Every mount below a read-only bind is
// read-only too. The OOM score is written as root, before the identity is
// dropped: with CAP_SYS_RESOURCE, that is also the least it may set again;
// the parent moves it into the memory cgroup given, if any, as soon as it
// is cloned, and the child waits for that before it does anything.
//
// The child is PID 1 of its namespace: when it ends, the kernel kills
// everything it started, and it cannot see, signal or trace anything outside.
// (As PID 1 it also ignores signals it has no handler for, SIGXCPU and
// SIGXFSZ included; SIGKILL from outside still ends it.)
// A layer the platform refuses (no user namespaces, say) is recorded in
// SandboxLayers::missing and the child runs with the layers that did apply;
// the caller decides whether such a run can be trusted.
//
// The syscall filter is not installed here: the runner installs it itself
// (eval/sandbox/seccomp.h) after its own trusted set-up and before it loads model code.
//
// Call from any thread; the child's side does only system calls on data
// prepared before the clone.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/cgroup.h"
#include "base/result.h"
#include "base/subprocess.h"
#include "eval/sandbox/sandbox_view.h"

namespace eval {

// What the child sees and is (SandboxView: the runner's defaults), and how it starts.
struct SandboxOptions : SandboxView {
  std::vector<std::string> argv;         // argv[0]: absolute path of the program
  std::vector<std::string> env;          // the child's whole environment
  std::vector<std::pair<int, int>> fds;  // parent descriptor -> child descriptor (3 and up)
  int stdout_fd = -1, stderr_fd = -1;    // the child's 1 and 2 (default /dev/null)
  std::string root_dir;  // an empty folder the new root is built on (any number of children may share one)
  std::string cwd;       // the working folder, visible in the view; empty: /tmp
  std::vector<base::ResourceLimit> limits;
  // A memory cgroup the child is moved into (base/cgroup.h); null: none.
  const base::MemoryCgroup* cgroup = nullptr;
  // Submounts of the bound folders are made read-only with mount_setattr(2)
  // (AT_RECURSIVE) where the kernel has it (5.12), else one by one from
  // /proc/self/mountinfo; true takes the second way everywhere (for tests).
  bool remount_by_walk = false;
};

// What applied. `missing` names each layer that did not, with the reason.
struct SandboxLayers {
  bool user_namespace = false;  // a user namespace (when not root)
  bool pid_namespace = false;
  bool mount_namespace = false;  // and a private root built on it
  bool network_namespace = false;
  bool ipc_namespace = false;
  bool unprivileged = false;  // another uid, or no capabilities
  bool no_new_privs = false;
  unsigned uid = 0;                // the child's uid as the host sees it
  int oom_score_adj = 0;           // as set (0 where it could not be)
  bool memory_cgroup = false;      // moved into SandboxOptions::cgroup
  uint64_t memory_cap_bytes = 0;   // that cgroup's cap
  std::string memory_cgroup_note;  // why not, when a cgroup was given
  std::vector<std::string> missing;
};

struct SandboxedChild {
  pid_t pid = -1;
  SandboxLayers layers;
};

base::Result<SandboxedChild> spawn_sandboxed(const SandboxOptions& options);

// A starter for run_process (SpawnOptions::start) that spawns its child into
// a sandbox of this view, with the options' argv, environment, working folder
// and limits, its root built on an empty folder of its own (removed once the
// child is gone); the result records the layers refused.
//
// With `memory_cgroup_bytes` > 0, each child also gets a memory cgroup of its
// own capped there (refinery-compile-PID-XXXXXX under base::cgroup_parent()),
// which holds it and everything it starts together, and which is removed
// once the child has been waited for; the result records the cap
// (ProcessResult::memory_cgroup_bytes) and whether its OOM killer ended a
// process (memory_cgroup_oom). Where no cgroup can be made the child runs
// without one, under its rlimits alone, and memory_cgroup_note says why.
class SandboxStarter : public base::ChildStarter {
 public:
  explicit SandboxStarter(SandboxView view, uint64_t memory_cgroup_bytes = 0)
      : view_(std::move(view)), memory_cgroup_bytes_(memory_cgroup_bytes) {}
  const SandboxView& view() const { return view_; }
  uint64_t memory_cgroup_bytes() const { return memory_cgroup_bytes_; }
  base::Result<base::StartedChild> start(const base::SpawnOptions& o, int out_fd, int err_fd,
                                         base::ProcessResult& r) const override;

 private:
  SandboxView view_;
  uint64_t memory_cgroup_bytes_;
};

// Folders holding the shared libraries this process has mapped (from
// /proc/self/maps): what a child of the same program needs to see to load.
std::vector<std::string> mapped_library_folders();

}  // namespace eval
