// A campaign's report from its records: for every arm (model x strategy) and
// every turn, fast_p at the config's thresholds (and fast_p@k), correct rate
// and geometric-mean speedup; per arm, attempts by status, tokens and cost.
// As JSON for scripts (RUN/report.json) and as a table for people.
// Pure functions of their inputs.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "agent/campaign/attempt.h"
#include "agent/config.h"

namespace agent {

// `left_out`: problems (of `problems`) that fast_p and the other per-turn
// figures leave out, as config.leave_out (and refinery report --leave-out)
// chose them; the report lists them and says why.
nlohmann::json campaign_report(const Config& config, const std::vector<std::string>& problems,
                               const std::vector<Attempt>& attempts, const std::vector<std::string>& left_out = {},
                               const std::vector<std::string>& leave_out_patterns = {});

std::string format_report(const nlohmann::json& report);

}  // namespace agent
