// The ncu adapter: Nsight Compute runs a profile-only worker job (see
// profiler/cupti.h) with the same metrics as CUPTI, and its CSV
// (`--csv --page raw --print-units base`) becomes a Profile. The worker
// launches a marker kernel between the candidate's call and the reference's;
// rows before it are the candidate's, rows after it the reference's.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "profiler/profile.h"

namespace profiler {

// ncu's arguments before the worker's command; {log} is where the CSV goes.
std::vector<std::string> ncu_arguments(const std::string& ncu_path, const std::vector<std::string>& metrics,
                                       const std::string& log_path);

// Parses ncu's CSV log into the candidate's and the reference's kernels.
base::Result<Profile> parse_ncu_csv(const std::string& text, const std::vector<std::string>& metrics);

}  // namespace profiler
