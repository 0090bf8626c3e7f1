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
//
// Standbys. A Python candidate's runner spends seconds on `import torch`
// before it can serve (3-6 s on the GPU host, against 0.3 s for a C++
// runner's start). So after a Python job on a backend of
// LaunchOptions::standby_backends (cuda by default), the launcher starts a
// standby judge for the same kind of job (backend, device, language,
// threads, scratch size; eval/worker/standby.h): a worker in a job folder of
// its own, with the runner's cgroup made for it, whose runner starts at once
// and waits for a job. The next job of that kind is handed to it (its
// deadline counts from the hand-off) and the result says runner_standby; a
// job of another kind, or one that finds none, runs as before. At most one
// standby per kind; each serves exactly one job, its runner never holding
// model code before it. A standby that ended while it waited (its runner
// killed, say) is discarded and the job runs with a fresh worker, as does
// one that ends without beginning the job. The destructor ends every
// standby and removes its cgroup and folder.
//
// run() is thread-safe: each call owns its folder and process, and a standby
// is taken out of the launcher's table, under its lock, by exactly one call.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
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
  // The backends whose Python jobs leave a standby behind for the next one
  // (see above). Only cuda by default: on a machine of few cores a standby
  // importing torch would share them with a timed evaluation on cpu.
  std::vector<Backend> standby_backends = {Backend::cuda};
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
  ~WorkerLauncher();  // ends the standbys
  WorkerLauncher(const WorkerLauncher&) = delete;
  WorkerLauncher& operator=(const WorkerLauncher&) = delete;
  // `wrapper` (ncu and its arguments) goes before the worker's command; "{dir}"
  // in it is the job's folder. `read_back`, a file the wrapper writes in that
  // folder, is returned in `read_back_text` (empty if it was not written).
  base::Result<Outcome> run(const WorkerJob& job, const std::vector<std::string>& wrapper = {},
                            const std::string& read_back = "", std::string* read_back_text = nullptr);
  const LaunchOptions& options() const { return options_; }
  // How many standbys wait now.
  size_t standbys() const;

 private:
  struct Standby;
  struct StandbyKey {
    Backend backend = Backend::cpu;
    int device = 0;
    LanguageId language = LanguageId::cxx;
    int threads = 0;
    uint64_t scratch_bytes = 0;
    auto operator<=>(const StandbyKey&) const = default;
  };
  static StandbyKey key_of(const WorkerJob& job);
  bool takes_standby(const WorkerJob& job, const std::vector<std::string>& wrapper) const;
  // The job's runner cgroup, made for it where the options ask for one (the fields of `job` say which).
  std::unique_ptr<base::MemoryCgroup> make_runner_cgroup(WorkerJob& job) const;
  base::SpawnOptions spawn_options(const std::string& dir, int threads) const;
  // Writes job.json into the job's folder (and a copy to keep, when asked); its path.
  base::Result<std::string> write_job(const WorkerJob& job, const std::string& dir) const;
  // The verdict of a worker that ended: its result, or what its end says.
  Outcome read_outcome(const base::ProcessResult& p, const WorkerJob& job) const;
  base::Result<Outcome> run_fresh(const WorkerJob& job, const std::vector<std::string>& wrapper,
                                  const std::string& read_back, std::string* read_back_text);
  // Standbys (worker_standby.cc): started for a key unless one waits;
  // taken out of the table; handed a job (nullopt: it did not begin it).
  void keep_standby(const StandbyKey& key);
  std::unique_ptr<Standby> take_standby(const StandbyKey& key);
  base::Result<std::unique_ptr<Standby>> start_standby(const StandbyKey& key);
  base::Result<std::optional<Outcome>> run_on_standby(Standby& standby, const WorkerJob& job);

  LaunchOptions options_;
  base::ProcessSpawner& spawner_;
  mutable std::mutex standby_mutex_;
  std::map<StandbyKey, std::unique_ptr<Standby>> standbys_;  // guarded by standby_mutex_
};

// The parent's environment as "KEY=VALUE" strings.
std::vector<std::string> current_environment();

}  // namespace eval
