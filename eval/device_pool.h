// The devices evaluations run on: one worker at a time on each, so that
// timings never share a device, and as many at once as there are devices
// (every visible GPU, the GPUs a config lists, or on the cpu backend
// `eval.workers` slots that work the same way, so the logic runs in CI).
//
// A device whose job faulted or hung (device_suspect) is probed before it is
// used again: the problem's reference run against itself on it. A device
// whose probe fails is retired (taken out of the rotation for the rest of the
// process, with the reason), and the job runs again on another device, once;
// the outcome says which device produced it and which it retired.
//
// A candidate cannot retire a device by crashing: only a failed probe of the
// reference does, and a probe runs the reference alone in a fresh worker.
// A candidate that breaks every device it touches retires at most two (the
// one it ran on and the one it ran again on) before its own verdict stands.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "base/result.h"
#include "eval/job.h"
#include "eval/verdict/outcome.h"

namespace eval {

class DevicePool {
 public:
  explicit DevicePool(std::vector<int> devices);

  // Blocks until a device in rotation is free and takes it; an Error once
  // every device is retired.
  base::Result<int> acquire();
  void release(int device);
  // Out of the rotation; a thread waiting in acquire() is told if none is left.
  void retire(int device, const std::string& reason, const std::string& during);

  const std::vector<int>& devices() const { return devices_; }
  std::vector<RetiredDevice> retired() const;

 private:
  const std::vector<int> devices_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  std::set<int> busy_;
  std::vector<RetiredDevice> retired_;
};

// Whether an outcome could be the device's fault rather than the
// candidate's alone: a hang, a crash, or a CUDA error the driver reports for
// the whole context (an illegal address, a launch failure, an ECC error).
bool device_suspect(const Outcome& outcome);

// One job on the pool. `run` evaluates on a device; when its outcome is
// suspect, `probe` checks that device (an Error retires it) and, if it was
// retired, the job runs once more on another. The returned outcome carries
// the device that produced it and the devices retired on its way.
struct PooledOutcome {
  Outcome outcome;
  int device = 0;
  std::vector<RetiredDevice> retired;
  int probes = 0;       // how many probes ran
  double probe_ms = 0;  // and how long they took
};
base::Result<PooledOutcome> run_on_pool(DevicePool& pool, const std::string& what,
                                        const std::function<base::Result<Outcome>(int device)>& run,
                                        const std::function<base::Status(int device)>& probe);

}  // namespace eval
