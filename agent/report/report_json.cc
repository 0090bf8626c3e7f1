// The JSON printer of report_printers.h.
#include <cstdio>

#include "agent/report/report_printers.h"

namespace agent {
using nlohmann::json;

namespace {

// A threshold as the report's keys name it: "0.5", "1".
std::string threshold_key(double p) {
  char key[32];
  std::snprintf(key, sizeof key, "%g", p);
  return key;
}

json turn_json(const TurnFigures& f, const std::vector<double>& thresholds) {
  json fast = json::object(), fast_k = json::object();
  for (size_t i = 0; i < thresholds.size(); ++i) {
    fast[threshold_key(thresholds[i])] = f.fast_p[i];
    fast_k[threshold_key(thresholds[i])] = f.fast_p_at_k[i];
  }
  return {{"turn", f.turn},
          {"fast_p", fast},
          {"fast_p_at_k", fast_k},
          {"correct_rate", f.correct_rate},
          {"geomean_speedup", f.geomean_speedup ? json(*f.geomean_speedup) : json(nullptr)},
          {"chains_with_correct", f.chains_with_correct},
          {"sol_median", f.sol_median ? json(*f.sol_median) : json(nullptr)},
          {"sol_chains", f.sol_chains},
          {"spent",
           {{"attempts", f.spent_attempts},
            {"tokens", f.spent_tokens},
            {"dollars", f.spent_dollars},
            {"gpu_seconds", f.spent_gpu_seconds}}}};
}

json arm_json(const ArmReport& arm, const std::vector<double>& thresholds) {
  json turns = json::array();
  for (const auto& f : arm.turns) turns.push_back(turn_json(f, thresholds));
  json j = {{"model", arm.model},
            {"strategy", arm.strategy},
            {"samples", arm.samples},
            {"turns", turns},
            {"attempts", arm.attempts},
            {"attempts_by_status", arm.attempts_by_status},
            {"tokens",
             {{"input", arm.input_tokens},
              {"cached_input", arm.cached_input_tokens},
              {"output", arm.output_tokens},
              {"reasoning", arm.reasoning_tokens},
              {"total", arm.input_tokens + arm.output_tokens}}},
            {"cost_usd", arm.cost_usd},
            {"unstable_attempts", arm.unstable_attempts},
            {"unstable_counted", arm.unstable_counted},
            {"usage_invalid", arm.usage_invalid}};
  // Only campaigns that quarantined something say so: older reports read as they did.
  if (!arm.quarantined.empty()) {
    json held = json::array();
    for (const auto& q : arm.quarantined)
      held.push_back({{"key", q.key}, {"speedup", q.speedup}, {"reason", q.reason}});
    j["quarantined"] = held;
  }
  if (arm.quarantine_accepted > 0) j["quarantine_accepted"] = arm.quarantine_accepted;
  if (arm.library_only > 0) j["library_only"] = arm.library_only;
  if (!arm.labels.empty()) j["labels"] = arm.labels;
  if (arm.reward_hacks > 0) j["reward_hacks"] = arm.reward_hacks;
  if (arm.hidden_checked > 0)
    j["hidden_shapes"] = {{"checked", arm.hidden_checked},
                          {"passed", arm.hidden_passed},
                          {"gap", 1.0 - static_cast<double>(arm.hidden_passed) / arm.hidden_checked}};
  if (!arm.sol_notes.empty()) j["sol_notes"] = arm.sol_notes;
  if (!arm.ended_by_budget.empty()) j["ended_by_budget"] = arm.ended_by_budget;
  if (!arm.precisions.empty()) j["precisions"] = arm.precisions;
  return j;
}

json comparison_json(const VerdictComparison& c) {
  auto side = [](const VerdictComparison::Side& s) {
    return json{{"mode", s.mode}, {"status", to_string(s.status)}, {"message", s.message}};
  };
  json differ = json::array();
  for (const auto& d : c.differ) differ.push_back({{"key", d.key}, {"this", side(d.ours)}, {"other", side(d.theirs)}});
  return {{"compared", c.compared}, {"differ", differ}, {"run", c.run}};
}

json interval_json(const std::optional<Interval>& i) {
  if (!i) return nullptr;
  return {{"value", i->value}, {"low", i->low}, {"high", i->high}};
}

json optional_json(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

}  // namespace

json to_json(const Comparison& c) {
  json turns = json::array();
  for (const auto& t : c.turns) {
    json diffs = json::array();
    for (const auto& d : t.fast_p_diff) diffs.push_back(interval_json(d));
    turns.push_back({{"turn", t.turn},
                     {"fast_a", t.fast_a},
                     {"fast_b", t.fast_b},
                     {"fast_p_diff", diffs},
                     {"geomean_a", optional_json(t.geomean_a)},
                     {"geomean_b", optional_json(t.geomean_b)},
                     {"geomean_ratio", interval_json(t.geomean_ratio)},
                     {"won", t.won},
                     {"lost", t.lost},
                     {"tied", t.tied},
                     {"cost_per_solved_a", optional_json(t.cost_per_solved_a)},
                     {"cost_per_solved_b", optional_json(t.cost_per_solved_b)}});
  }
  return {{"a", c.a},           {"b", c.b},           {"thresholds", c.thresholds}, {"paired", c.paired},
          {"only_a", c.only_a}, {"only_b", c.only_b}, {"resamples", c.resamples},   {"seed", c.seed},
          {"turns", turns}};
}

json to_json(const CampaignReport& r) {
  json arms = json::array();
  for (const auto& arm : r.arms) arms.push_back(arm_json(arm, r.thresholds));
  json j = {{"config", r.config},
            {"problems", r.problems},
            {"thresholds", r.thresholds},
            {"backends", r.backends},
            {"arms", arms}};
  // Records written before devices, modes, leave_out, shards and --compare say
  // none: their reports read as they did.
  if (!r.device_attempts.empty() || !r.retired.empty()) {
    json counts = json::object();
    for (const auto& [d, n] : r.device_attempts) counts[std::to_string(d)] = n;
    json retired = json::array();
    for (const auto& x : r.retired) retired.push_back({{"device", x.device}, {"reason", x.reason}, {"key", x.key}});
    j["devices"] = {{"attempts", counts}, {"retired", retired}};
  }
  if (!r.modes.empty()) j["modes"] = r.modes;
  if (r.left_out) j["left_out"] = {{"patterns", r.left_out->patterns}, {"problems", r.left_out->problems}};
  if (r.shards) j["shards"] = {{"count", r.shards->count}, {"read", r.shards->read}, {"problems", r.shards->problems}};
  if (r.compare) j["compare"] = comparison_json(*r.compare);
  return j;
}

}  // namespace agent
