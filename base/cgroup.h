// Memory cgroups, one per untrusted child (the runner of model code, and each
// compile step where its sandbox is given a cap): a cap on every page the child charges, anonymous
// memory, memfd and tmpfs files and SysV shared memory alike, which
// RLIMIT_AS cannot see (and which CUDA forbids), enforced by the kernel's OOM
// killer inside the cgroup, so that nothing outside it is chosen.
//
// find_cgroup_parent() says where this process may make them, or why it may
// not: under its own memory cgroup, on cgroup v1 (the memory hierarchy) or v2.
// On v2 a cgroup with processes cannot hand the memory controller to children;
// when this process is the only one in its cgroup, it moves itself into a
// leaf of it (`refinery`) and enables the controller there, as nsjail does;
// otherwise it says so (run refinery in a delegated cgroup of its own:
// `systemd-run --scope -p Delegate=yes`). That move makes a second look see
// another cgroup, so every maker of cgroups in a process (the worker
// launcher, the compilers' sandbox) shares one look: cgroup_parent().
//
// A MemoryCgroup made with create() is owned: its destructor kills what is
// left in it and removes it. One joined with join() (made by another process,
// the launcher, and used by the judge) is not.
//
// Each object is used by one thread at a time; the functions are safe from any.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "base/result.h"

namespace base {

struct CgroupParent {
  std::string path;     // the folder children are made in; empty when none can be
  int version = 0;      // 1 or 2
  std::string why_not;  // when path is empty
};

// Where cgroups for this process's children would go, from the text of
// /proc/self/cgroup and /proc/self/mountinfo alone (pure): v1's memory
// hierarchy if one is mounted, else the cgroup v2 mount; path empty (and
// why_not) when neither holds this process's cgroup.
CgroupParent parse_cgroup_parent(const std::string& proc_self_cgroup, const std::string& mountinfo);

// parse_cgroup_parent() for this process, checked on the file system (v2: the
// memory controller enabled for children, by the move described above where
// needed; v1 and v2: the folder writable).
CgroupParent find_cgroup_parent();

// find_cgroup_parent(), once per process (on first use, by whichever thread
// comes first; every later call, from any thread, gets the same answer),
// after which the stale cgroups of refineries that are gone are removed.
const CgroupParent& cgroup_parent();

// Removes the empty cgroups under `parent` that a refinery killed before it
// could remove them left behind (refinery-runner-PID-XXXXXX,
// refinery-compile-PID-XXXXXX, whose PID is no live process); one that
// still holds a process stays. Returns how many it removed.
int remove_stale_cgroups(const CgroupParent& parent);

class MemoryCgroup {
 public:
  // A new cgroup under `parent`, named prefix-XXXXXX, capped at limit_bytes
  // of memory and no swap beyond it (v2: memory.max, memory.swap.max 0 and
  // memory.oom.group; v1: memory.limit_in_bytes and, where swap is accounted,
  // memory.memsw.limit_in_bytes).
  static Result<std::unique_ptr<MemoryCgroup>> create(const CgroupParent& parent, const std::string& prefix,
                                                      uint64_t limit_bytes);
  // One that another process made, at `path` (a folder create() made).
  static Result<std::unique_ptr<MemoryCgroup>> join(const std::string& path, int version);
  ~MemoryCgroup();
  MemoryCgroup(const MemoryCgroup&) = delete;
  MemoryCgroup& operator=(const MemoryCgroup&) = delete;

  // Moves process `pid` (all its threads) in.
  Status add(pid_t pid) const;
  // How many processes in it the OOM killer ended.
  uint64_t oom_kills() const;
  // Its cap, as the kernel holds it (0 if it cannot be read).
  uint64_t limit_bytes() const;
  // The most it held at once (v2 without memory.peak, before 5.19: 0).
  uint64_t peak_bytes() const;
  // Kills every process in it (SIGKILL).
  void kill_all() const;

  const std::string& path() const { return path_; }
  int version() const { return version_; }

 private:
  MemoryCgroup(std::string path, int version, bool owned) : path_(std::move(path)), version_(version), owned_(owned) {}
  std::string path_;
  int version_;
  bool owned_;
};

}  // namespace base
