// The keys of quarantined attempts a person accepted (RUN/accepted.jsonl,
// written by `refinery accept`, read by `refinery report`).
#pragma once

#include <set>
#include <string>

#include "base/result.h"

namespace agent {

// Empty when the file does not exist; an Error naming the line for a damaged one.
base::Result<std::set<std::string>> read_accepted(const std::string& run_dir);

}  // namespace agent
