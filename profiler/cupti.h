// The worker's profiling phase on a GPU, after timing and apart from it:
//
//  1. Activity (CUPTI activity API): one call of the candidate, then one of
//     the reference, each recorded on its own: every kernel with its
//     demangled name, duration, grid and block, registers, shared and local
//     memory, and every memcpy and memset.
//  2. Counters (CUPTI range profiler, CUDA 13's profiler host API): the same
//     two calls again with auto ranges and kernel replay, so that each kernel
//     launch is one range with its metric values. Metrics this device does not
//     know are left out and named in the note; without counter permission
//     (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) the activity data stands alone
//     and the note says why.
//
// For the ncu adapter, profile_window_for_ncu runs the same two calls with
// nothing of CUPTI's, between cudaProfilerStart and cudaProfilerStop, with a
// marker kernel between them so that ncu's rows can be split into the
// candidate's and the reference's.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/result.h"
#include "profiler/profile.h"

namespace profiler {

using Call = std::function<base::Status()>;  // one call, synchronised

// The device's limits, read from the runtime.
DeviceLimits device_limits(int device);

// One call with CUPTI's activity records on: its kernels (demangled names,
// durations; graph-launched ones too), memcpys and memsets. The launch
// watch's traced calls (profiler/launch_watch.h).
base::Result<CallProfile> record_kernels(const Call& call);

// A mangled C++ name demangled, or the name as it is; "?" for none.
std::string demangle(const char* name);

base::Result<Profile> profile_with_cupti(int device, const std::vector<std::string>& metrics, const Call& candidate,
                                         const Call& reference);

// The marker kernel's name, as ncu reports it.
inline constexpr const char* kNcuMarkerKernel = "refinery_profile_marker";
base::Status profile_window_for_ncu(const Call& candidate, const Call& reference);

}  // namespace profiler
