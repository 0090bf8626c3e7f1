// Writing a campaign's reports (agent/cli/cmd_report.cc): what `refinery
// report` and the end of `refinery run` share.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "agent/report/run_data.h"
#include "eval/problems/problem_index.h"

namespace agent {

// The selected problems that `patterns` (config.leave_out and --leave-out) name.
base::Result<std::vector<std::string>> left_out_of(const std::vector<std::string>& patterns,
                                                   const std::vector<std::string>& problems,
                                                   const eval::ProblemIndex& index);

// Writes report.json, report.txt and report.html of `run` into `out` and
// prints the JSON (json_out), the HTML's path (html_out) or the text.
// `extra_leave_out` adds to the config's leave_out. Returns the exit code.
int write_reports(const RunData& run, const std::filesystem::path& out, bool json_out, bool html_out,
                  const std::vector<std::string>& extra_leave_out, const eval::ProblemIndex& index,
                  std::optional<VerdictComparison> compared = {});

}  // namespace agent
