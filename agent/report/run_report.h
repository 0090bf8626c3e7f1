// A campaign's report from its records: for every arm (model x strategy) and
// every turn, fast_p at the config's thresholds (and fast_p@k), correct rate
// and geometric-mean speedup; per arm, attempts by status, tokens and cost.
// As JSON for scripts (RUN/report.json) and as a table for people.
// Pure functions of their inputs.
#pragma once

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

#include "agent/campaign/attempt.h"
#include "agent/config.h"

namespace agent {

// `accepted`: keys of quarantined attempts a person accepted (RUN/accepted.jsonl,
// `refinery accept`): their speedups count; the other quarantined ones count as
// correct but not toward fast_p for p > 0 or the geomean, and are listed.
// `left_out`: problems (of `problems`) that fast_p and the other per-turn
// figures leave out, as config.leave_out (and refinery report --leave-out)
// chose them; the report lists them and says why.
nlohmann::json campaign_report(const Config& config, const std::vector<std::string>& problems,
                               const std::vector<Attempt>& attempts, const std::vector<std::string>& left_out = {},
                               const std::vector<std::string>& leave_out_patterns = {},
                               const std::set<std::string>& accepted = {});

std::string format_report(const nlohmann::json& report);

// The attempts evaluated in both campaigns (the same key: model, strategy,
// problem, sample, turn) whose verdicts differ, with each side's mode, status
// and message (which says why: a mismatch's share of elements beyond its
// tolerance, say): for a campaign replayed in both modes.
nlohmann::json compare_verdicts(const std::vector<Attempt>& ours, const std::vector<Attempt>& theirs);
std::string format_comparison(const nlohmann::json& comparison, const std::string& other);

}  // namespace agent
