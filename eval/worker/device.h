// The worker's view of the device it evaluates on: synchronisation, cache
// flushing, one timed call, and what it is (for the result's versions).
//
// CudaDevice times a call with CUDA events on the legacy default stream and,
// after a device-wide synchronisation, a second end event, so that work the
// call left on other streams can be counted (a batch: see time_calls) (see timing.h for how the two are
// chosen). CpuDevice times with the steady clock. One per worker process;
// used from the worker's main thread only.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "eval/job.h"

namespace eval::worker {

struct CallTime {
  double stream_ms = 0;       // events around the call on the current stream
  double device_wide_ms = 0;  // start event to an event after a device-wide sync
  double host_ms = 0;         // host clock around call and sync
};

class Device {
 public:
  virtual ~Device() = default;
  // Waits for all work on the device; returns an asynchronous error if one is pending.
  virtual base::Status synchronize() = 0;
  // Evicts the caches the next call would otherwise find warm.
  virtual void flush_cache() = 0;
  virtual base::Result<CallTime> time_call(const std::function<base::Status()>& call) = 0;
  // `n` calls back to back, call(k) for k = 0..n-1. The caller syncs before
  // the first. By default each is timed as time_call times one; CudaDevice
  // queues them with no sync between (a small kernel's time is then its own,
  // not the host's launch latency) and shares the batch's host and
  // device-wide excess evenly over the calls.
  virtual base::Result<std::vector<CallTime>> time_calls(int n, const std::function<base::Status(int)>& call) {
    std::vector<CallTime> out;
    for (int k = 0; k < n; ++k) {
      TRY_ASSIGN(CallTime t, time_call([&] { return call(k); }));
      out.push_back(t);
    }
    return out;
  }
  // In the runner, before each request: persisting-L2 lines the candidate
  // set aside go back to normal, so that the judge's flush evicts them
  // (cudaCtxResetPersistingL2Cache). Nothing on cpu.
  virtual void reset_persisting_cache() {}
  // In the runner, before an untimed checked call: the memory the caching
  // allocator holds free (a freed output, an answer left lying around) is
  // filled with 0xFF bytes (NaN as a float), so that an output the call
  // allocates and leaves unwritten reads wrong. Nothing on cpu.
  virtual base::Status poison_free_memory() { return {}; }
  virtual std::string clock_name() const = 0;
  virtual nlohmann::json describe() const = 0;
};

// Creates the device the job asks for, or an Error saying why it cannot.
base::Result<std::unique_ptr<Device>> make_device(Backend backend, int ordinal, int threads, bool tf32_cudnn = false);

// What this worker can see: LibTorch version, CUDA availability and devices.
nlohmann::json probe();

}  // namespace eval::worker
