// What a sandboxed child sees of the host and who it is there: the part of a
// sandbox (eval/sandbox/sandbox.h) that a caller chooses. Plain data, no behaviour.
//
// The runner of model code keeps the defaults (the system folders, /etc and
// /sys included, and the devices a CUDA program needs). Compilers and other
// build tools start from toolchain_view(): only what a toolchain reads, and
// one folder of their own to write in (`read_write`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace eval {

struct SandboxView {
  // Host folders visible read-only at the same place (one that is a link on
  // the host, /lib -> usr/lib, is the same link); those missing are skipped.
  std::vector<std::string> system = {"/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc", "/sys"};
  // More paths (folders or files) visible read-only at the same place, and
  // also at their real path when that differs.
  std::vector<std::string> read_only;
  // Folders visible writable at the same place, bound over everything above
  // (so command lines naming them work unchanged). When the caller is root
  // they are handed to `uid`/`gid` (chowned, links not followed) before the
  // child starts; taking them back is the caller's (base::chown_tree).
  std::vector<std::string> read_write;
  std::vector<std::string> devices = {"null", "zero", "full", "random", "urandom"};  // nodes of /dev
  bool nvidia_devices = true;                                                        // and /dev/nvidia*
  uint64_t scratch_bytes = 256ull << 20;                                             // the private /tmp (a tmpfs)
  unsigned uid = 65534, gid = 65534;  // the identity taken when the caller is root
  // Written to /proc/self/oom_score_adj before the identity drops, so that
  // the OOM killer takes the child (the runner, a compiler) before refinery
  // and the judge (1000, the most); 0: left as inherited.
  int oom_score_adj = 1000;
  // true: where the platform refuses a layer, an Error naming it, and nothing
  // runs; false: the child runs with the layers that applied (recorded).
  bool require_every_layer = false;
};

// What compilers and build tools need of the host: /usr, /lib*, /bin, /sbin,
// /etc/ld.so.cache and /etc/alternatives (not the rest of /etc), /dev/null
// only, no /sys, no NVIDIA devices; the OOM killer's first choice.
SandboxView toolchain_view();

}  // namespace eval
