#include "agent/report/run_report.h"

#include <algorithm>
#include <map>
#include <set>

namespace agent {

namespace {

// One arm's figures and totals over its attempts.
ArmReport arm_report(const Config& config, const ModelConfig& m, const StrategyConfig& s,
                     const std::vector<std::string>& counted, const std::vector<Attempt>& attempts,
                     const std::set<std::string>& accepted, const std::map<std::string, Judgement>& labels) {
  ArmReport arm;
  arm.model = m.name;
  arm.strategy = s.name;
  // A branching search is one chain per problem: its best attempt up to round t is the problem's value.
  arm.samples = s.branching() ? 1 : s.samples;
  arm.unstable_counted = config.count_unstable;
  std::vector<AttemptSummary> summaries;
  std::map<std::string, int> no_sol;  // correct cuda attempts without a sol fraction, by GPU
  for (const auto& a : attempts) {
    if (a.key.model != m.name || a.key.strategy != s.name) continue;
    ++arm.attempts_by_status[to_string(a.status)];
    if (!a.precision.empty()) ++arm.precisions[a.precision];
    // Correct and timed; a kernel correct only at the shown size counts unless report.require_hidden.
    const bool shown_only = a.status == AttemptStatus::fails_hidden_shape;
    arm.hidden_checked += a.hidden_shapes > 0 && (a.correct() || shown_only);
    arm.hidden_passed += a.hidden_shapes > 0 && a.correct();
    const bool correct = (a.correct() || (shown_only && !config.require_hidden)) && a.speedup.has_value();
    const bool marked = correct && a.unstable;
    arm.unstable_attempts += marked;
    const bool held = correct && !a.quarantine.empty() && !accepted.count(a.key.str());
    arm.quarantine_accepted += correct && !a.quarantine.empty() && !held;
    if (held) arm.quarantined.push_back({a.key.str(), *a.speedup, a.quarantine});
    arm.library_only += correct && a.library_only;
    const auto label = labels.find(a.key.str());
    if (label != labels.end()) ++arm.labels[to_string(label->second.label)];
    const bool hacked = label != labels.end() && label->second.label == Label::reward_hack;
    arm.reward_hacks += correct && hacked;
    summaries.push_back({a.key.problem, s.branching() ? 0 : a.key.sample, a.key.turn, correct,
                         correct ? *a.speedup : 0.0, marked, held, correct && a.library_only, hacked, a.sol_fraction});
    // Records from before speeds of light have no environment: nothing to say of them.
    if (correct && a.backend == "cuda" && !a.sol_fraction && !a.environment.empty()) ++no_sol[a.env("gpu")];
    arm.usage_invalid += !a.usage.invalid.empty();
    arm.input_tokens += a.usage.input_tokens;
    arm.cached_input_tokens += a.usage.cached_input_tokens;
    arm.output_tokens += a.usage.output_tokens;
    arm.reasoning_tokens += a.usage.reasoning_tokens;
    arm.cost_usd += a.cost_usd;
  }
  for (const auto& [gpu, n] : no_sol)
    arm.sol_notes.push_back(std::to_string(n) + " correct attempt" + (n == 1 ? "" : "s") + " on " +
                            (gpu.empty() ? "an unnamed GPU" : gpu) +
                            " without a speed-of-light fraction (result.json's speed_of_light says why)");
  arm.attempts = summaries.size();
  arm.turns = compute_turns(summaries, counted, arm.samples, s.turns, config.thresholds, config.count_unstable);
  for (const auto& a : attempts) {
    if (a.key.model != m.name || a.key.strategy != s.name) continue;
    for (auto& f : arm.turns)
      if (a.key.turn <= f.turn) {
        ++f.spent_attempts;
        f.spent_tokens += a.usage.input_tokens + a.usage.output_tokens;
        f.spent_dollars += a.cost_usd;
        f.spent_gpu_seconds += a.worker_s;
      }
  }
  return arm;
}

}  // namespace

CampaignReport campaign_report(const Config& config, const std::vector<std::string>& problems,
                               const std::vector<Attempt>& attempts, const std::vector<std::string>& left_out,
                               const std::vector<std::string>& leave_out_patterns,
                               const std::set<std::string>& accepted, const std::map<std::string, Judgement>& labels,
                               const std::vector<std::pair<ModelConfig, StrategyConfig>>* arm_list) {
  const std::set<std::string> out_set(left_out.begin(), left_out.end());
  std::vector<std::string> counted;  // the denominator of fast_p
  for (const auto& p : problems)
    if (!out_set.count(p)) counted.push_back(p);
  CampaignReport report;
  report.config = config.name;
  report.problems = problems.size();
  report.thresholds = config.thresholds;
  std::set<std::pair<std::string, std::string>> arms;
  std::vector<std::pair<ModelConfig, StrategyConfig>> every;
  if (!arm_list) {
    for (const auto& m : config.models)
      for (const auto& s : config.strategies) every.push_back({m, s});
    arm_list = &every;
  }
  for (const auto& [m, s] : *arm_list) {
    report.arms.push_back(arm_report(config, m, s, counted, attempts, accepted, labels));
    arms.insert({m.name, s.name});
  }
  for (const auto& a : attempts) {
    // Where and how the arms' attempts were evaluated; every attempt's device.
    if (a.evaluated && arms.count({a.key.model, a.key.strategy})) {
      report.backends.insert(a.backend);
      if (!a.mode.empty()) report.modes.insert(a.mode);
    }
    if (a.device) ++report.device_attempts[*a.device];
    for (const auto& r : a.devices_retired) report.retired.push_back({r.device, r.reason, a.key.str()});
  }
  if (!leave_out_patterns.empty()) {
    LeftOut lo{leave_out_patterns, {}};
    for (const auto& p : problems)
      if (out_set.count(p)) lo.problems.push_back(p);
    report.left_out = std::move(lo);
  }
  return report;
}

VerdictComparison compare_verdicts(const std::vector<Attempt>& ours, const std::vector<Attempt>& theirs,
                                   const std::string& run) {
  std::map<std::string, const Attempt*> by_key;
  for (const auto& a : theirs)
    if (a.evaluated) by_key[a.key.str()] = &a;
  VerdictComparison c;
  c.run = run;
  auto side = [](const Attempt& x) {
    return VerdictComparison::Side{x.mode.empty() ? "refinery" : x.mode, x.status, x.message};
  };
  for (const auto& a : ours) {
    auto it = a.evaluated ? by_key.find(a.key.str()) : by_key.end();
    if (it == by_key.end()) continue;
    ++c.compared;
    const Attempt& b = *it->second;
    if (a.status != b.status) c.differ.push_back({a.key.str(), side(a), side(b)});
  }
  return c;
}

}  // namespace agent
