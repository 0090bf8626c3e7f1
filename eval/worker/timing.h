// The timing protocol (DESIGN.md, Timing): warm up both, then interleave
// reference and candidate trials (alternating which goes first), flushing the
// cache before every call, until min_trials are done and target_seconds are
// spent, or max_trials are done. Each call is timed by Device::time_call; per
// side, if the host clock shows more than the stream's events (work left on
// other streams), the device-wide measurement is used for that side.
// Worker main thread only.
#pragma once

#include <functional>
#include <vector>

#include "base/result.h"
#include "eval/job.h"
#include "eval/outcome.h"
#include "eval/worker/device.h"

namespace eval::worker {

// Median, mean, spread... of a series of milliseconds.
TimingStats summarize(std::vector<double> ms);

// Picks stream or device-wide times for one side; sets *device_wide when the latter.
std::vector<double> choose_series(const std::vector<CallTime>& calls, bool* device_wide);

base::Result<Timing> time_interleaved(Device& device, const TimingOptions& options,
                                      const std::function<base::Status()>& reference,
                                      const std::function<base::Status()>& candidate);

}  // namespace eval::worker
