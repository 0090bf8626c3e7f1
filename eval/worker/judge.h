// The judge's evaluation (run_job.h): the state its phases share. Internal
// to the worker: run_job.cc holds the setup, correctness and profile phases,
// judge_timing.cc the timing phase (the window's cost, interleaved timed
// batches, fresh inputs, the bound on the runner's claims).
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>

#include "eval/verdict/outcome.h"
#include "eval/worker/arena.h"
#include "eval/worker/device.h"
#include "eval/worker/entry.h"
#include "eval/worker/judge_setup.h"
#include "eval/worker/run_job.h"
#include "eval/worker/runner_link.h"
#include "eval/worker/timing.h"

namespace eval::worker {

using Clock = std::chrono::steady_clock;

class Progress {
 public:
  explicit Progress(const std::string& path)
      : fd_(open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600)) {}
  ~Progress() {
    if (fd_ >= 0) close(fd_);
  }
  void operator()(const std::string& phase) {
    if (fd_ < 0) return;
    std::string line = phase + "\n";
    (void)!write(fd_, line.data(), line.size());
  }

 private:
  int fd_;
};

inline double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// One call of a library's entry point, then a device synchronize.
base::Status call(Entry entry, Device& device, const std::vector<at::Tensor>& in, std::vector<at::Tensor>& out);

// How long this process takes to wake from a futex another thread posts:
// the median of a few rounds, measured by the judge on itself.
double futex_wake_latency_ms();

// The judge's evaluation: state shared by its phases.
class Judge {
 public:
  Judge(const WorkerJob& job, Outcome& o, Progress& progress, std::string root_dir)
      : job_(job), o_(o), progress_(progress), root_dir_(std::move(root_dir)) {}

  // A runner started before this judge had its job (a standby's): the judge
  // sends it the job rather than starting one.
  void adopt(StartedRunner started) {
    runner_cgroup_ = std::move(started.cgroup);
    runner_ = std::move(started.link);
    adopted_ = true;
  }
  Outcome run();
  // After run(): the adopted runner died before it took its job or said its
  // hello, with no model code ever in it, so the outcome is no verdict.
  bool standby_lost() const { return standby_lost_; }

 private:
  Outcome finish(Status status, std::string message) {
    o_.status = status;
    o_.message = std::move(message);
    if (job_.backend == Backend::cuda && connected_) o_.kernels = evidence_;
    return o_;
  }
  std::vector<at::Tensor> tensors_of(const std::vector<at::Tensor>& all) const {
    std::vector<at::Tensor> out;
    for (size_t i = 0; i < all.size(); ++i)
      if (!job_.inputs[i].is_scalar) out.push_back(all[i]);
    return out;
  }
  // Starts the runner first thing (unless one was adopted), so that its start
  // overlaps the judge's own, and sends it its job; an outcome when it cannot.
  std::optional<Outcome> launch_runner();
  // Once the reference has shaped the outputs: waits for the runner, checks
  // its sandbox, hands it the arena and has it load the candidate.
  std::optional<Outcome> connect_runner(const std::vector<at::Tensor>& inputs, const std::vector<at::Tensor>& outputs);
  // Copies the inputs into region `r` and poisons the output slots.
  base::Status stage(const std::vector<at::Tensor>& inputs, int r);
  // One candidate call in the runner; an outcome when the call ends the evaluation.
  // Calls at the places named, back to back, in one request.
  // `checked`: an untimed call whose outputs are compared (a correctness
  // trial): the runner poisons its freed memory first and traces the kernels.
  std::optional<Outcome> candidate_call(const std::vector<int>& places, bool timed, const std::string& where,
                                        RunnerAnswer* answer, bool checked = false);
  // Adds a call's launch-watch claims to the evidence.
  void take_evidence(const RunnerAnswer& a, bool timed);
  // Before the candidate loads: the judge's clock around timed batches of
  // the runner's no-op call, of one call and of every place, so that a
  // window's cost beyond its calls is known from a runner that holds no model code.
  std::optional<Outcome> measure_window_cost();
  // Warm-up, then interleaved timed batches of both sides. `pass` > 0 is
  // another timing after the bound contradicted the one before (on other
  // inputs, other checked calls), up to kTimings in all. Sets contradicted_
  // when the bound rejected.
  static constexpr int kTimings = 3;
  std::optional<Outcome> time_both(const std::vector<at::Tensor>& last_inputs, int pass);
  // The judge's secret (WorkerJob::entropy, or drawn from the kernel) and
  // what it makes of a seed: every draw and every choice of the judge goes
  // through it, so that a seed fixed by the config is no secret.
  base::Status take_secret();
  uint64_t hidden(uint64_t seed) const;
  void profile(const std::vector<at::Tensor>& inputs, int region);
  // A profile-only job under Nsight Compute: a warm-up call of the reference,
  // then the window ncu profiles. The verdict was given by the evaluation before this one.
  Outcome profile_for_ncu();

  const WorkerJob& job_;
  Outcome& o_;
  Progress& progress_;
  std::string root_dir_;
  std::unique_ptr<Device> device_;
  at::Device where_ = at::Device(at::kCPU);
  Entry reference_ = nullptr;
  int candidate_fd_ = -1;
  std::vector<std::string> names_;  // tensor inputs'
  Layout layout_;
  std::unique_ptr<Arena> arena_;
  std::unique_ptr<base::MemoryCgroup> runner_cgroup_;  // the launcher's, joined; outlives runner_
  std::unique_ptr<RunnerLink> runner_;
  bool connected_ = false;
  bool adopted_ = false, standby_lost_ = false;
  std::vector<std::vector<at::Tensor>> in_views_, out_views_;  // [place][tensor]
  WindowCost window_cost_;                                  // the runner's own, measured before the candidate is in it
  std::vector<double> window_cost_one_, window_cost_many_;  // its measurements, for timing.trace
  bool contradicted_ = false;                               // the last timing's bound rejected the claims
  uint64_t secret_[2] = {0, 0};
  KernelEvidence evidence_;  // cuda: the candidate's kernels, from the runner's launch watch
};

}  // namespace eval::worker
