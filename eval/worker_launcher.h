// Starts refinery-worker for one job, sandboxed as DESIGN.md says, and turns
// whatever happens into an Outcome.
//
// Each job gets a private folder (mode 0700) holding job.json, the result and
// the progress log; an environment built from an allowlist, with anything
// that looks like a secret removed even if allowlisted; closed stdin; stdout
// and stderr capped; no core dumps, capped file sizes and open files, an
// optional address-space cap; a new network namespace where the platform
// allows; a memory cgroup for the runner where the host allows one
// (LaunchOptions::runner_memory_bytes); and a hard deadline after which the
// whole process group is killed.
// A missing or malformed result is a verdict (timeout or crashed, with the
// signal, the last phase and the tail of stderr), never an Error: an Error
// means the launcher itself could not work (no scratch folder, no worker).
// run() is thread-safe: each call owns its folder and process.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/cgroup.h"
#include "base/result.h"
#include "base/subprocess.h"
#include "eval/job.h"
#include "eval/verdict/outcome.h"

namespace eval {

struct LaunchOptions {
  std::string worker_path;             // refinery-worker
  std::string scratch_dir;             // private job folders are made here
  double timeout_seconds = 300;        // the whole job, worker start included
  size_t output_cap_bytes = 64 << 10;  // per stream
  uint64_t memory_limit_bytes = 0;     // address space; 0 = none (cuda needs none)
  // The runner's memory cgroup cap (base/cgroup.h): every page it charges,
  // memfd, tmpfs and SysV shared memory included; 0 = no cgroup. A cgroup is
  // made for each job under refinery's own, where the host allows one.
  uint64_t runner_memory_bytes = 0;
  uint64_t file_size_limit_bytes = 1ull << 30;
  bool isolate_network = true;
  bool keep_job_dirs = false;  // leave folders behind for debugging
};

// The worker's environment: the allowlisted variables of `parent`, minus
// anything named like a secret, with HOME and TMPDIR pointing at job_dir.
std::vector<std::string> worker_environment(const std::vector<std::string>& parent, const std::string& job_dir,
                                            int threads);

// Three quarters of this machine's physical memory: the default of both caps above.
uint64_t default_memory_limit();

class WorkerLauncher {
 public:
  WorkerLauncher(LaunchOptions options, base::ProcessSpawner& spawner);
  // `wrapper` (ncu and its arguments) goes before the worker's command; "{dir}"
  // in it is the job's folder. `read_back`, a file the wrapper writes in that
  // folder, is returned in `read_back_text` (empty if it was not written).
  base::Result<Outcome> run(const WorkerJob& job, const std::vector<std::string>& wrapper = {},
                            const std::string& read_back = "", std::string* read_back_text = nullptr);
  const LaunchOptions& options() const { return options_; }

 private:
  LaunchOptions options_;
  base::ProcessSpawner& spawner_;
};

// The parent's environment as "KEY=VALUE" strings.
std::vector<std::string> current_environment();

}  // namespace eval
