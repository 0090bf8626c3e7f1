// A campaign's report, as one typed value: for every arm (model x strategy)
// and every turn, fast_p at the config's thresholds (and fast_p@k), correct
// rate and geometric-mean speedup; per arm, attempts by status, tokens and
// cost; which devices gave the verdicts, what was left out, and, when asked,
// how the shards were read and which verdicts differ from another run's.
//
// campaign_report builds it from the records; the printers (report_printers.h:
// JSON for RUN/report.json and --json, text for people) each render it, and
// none reads another's output. Pure functions of their inputs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "agent/campaign/attempt.h"
#include "agent/campaign/label.h"
#include "agent/config.h"
#include "agent/report/report.h"

namespace agent {

struct QuarantinedAttempt {
  std::string key;
  double speedup = 0;
  std::string reason;  // Attempt::quarantine
};

struct ArmReport {
  std::string model, strategy;
  int samples = 0;
  std::vector<TurnFigures> turns;  // 1..the strategy's turns
  size_t attempts = 0;
  std::map<std::string, int> attempts_by_status;  // by status name (to_string(AttemptStatus))
  int64_t input_tokens = 0, cached_input_tokens = 0, output_tokens = 0, reasoning_tokens = 0;
  double cost_usd = 0;
  int unstable_attempts = 0;                    // correct, timed, and marked unstable
  bool unstable_counted = false;                // config.count_unstable
  int usage_invalid = 0;                        // responses whose token counts were not believed
  std::vector<QuarantinedAttempt> quarantined;  // still waiting for `refinery accept`
  int quarantine_accepted = 0;
  int library_only = 0;               // correct attempts that ran no kernel of their own
  std::map<std::string, int> labels;  // attempts a person labelled, by label
  // Correct at the shown size with hidden shapes checked (eval.hidden_shapes),
  // and of those, correct at every hidden shape too: the generalization gap is
  // 1 - hidden_passed / hidden_checked.
  int hidden_checked = 0, hidden_passed = 0;
  int reward_hacks = 0;                        // correct attempts labelled reward_hack: counted as not correct
  std::vector<std::string> sol_notes;          // correct cuda attempts without a sol fraction, one line per GPU
  std::map<std::string, int> ended_by_budget;  // chains (searches) a budget ended, by "campaign tokens", ...
  // Evaluated attempts by the precision they ran at, when not fp32 (eval.precision,
  // a strategy's precision): "bf16", or "fp32" where a spec called the one asked unfit.
  std::map<std::string, int> precisions;
};

// A device retired on an attempt's way (eval/device_pool.h).
struct RetiredAfter {
  int device = 0;
  std::string reason;
  std::string key;  // the attempt
};

struct LeftOut {
  std::vector<std::string> patterns;  // as config.leave_out and --leave-out gave them
  std::vector<std::string> problems;  // the selected problems they name
};

// How a sharded run folder was read (agent/campaign/shard.h).
struct ShardsRead {
  int count = 0;                      // N
  size_t read = 0;                    // shard folders read
  std::vector<std::string> problems;  // missing, duplicated or foreign shards and attempts
};

// The attempts evaluated in both of two campaigns (the same key) whose
// verdicts differ, with each side's mode, status and message (which says why:
// a mismatch's share of elements beyond its tolerance, say): for a campaign
// replayed in both modes.
struct VerdictComparison {
  struct Side {
    std::string mode;  // "refinery" for records written before modes
    AttemptStatus status = AttemptStatus::crashed;
    std::string message;
  };
  struct Differ {
    std::string key;
    Side ours, theirs;
  };
  std::string run;  // the other run folder
  size_t compared = 0;
  std::vector<Differ> differ;
};

struct CampaignReport {
  std::string config;   // the config's name
  size_t problems = 0;  // selected, left-out ones included
  std::vector<double> thresholds;
  std::set<std::string> backends;  // where the attempts were timed
  std::vector<ArmReport> arms;
  std::map<int, int> device_attempts;        // attempts per device that gave the verdict
  std::vector<RetiredAfter> retired;         // devices a failed probe took out of the rotation
  std::set<std::string> modes;               // eval.compat modes; records before modes have none
  std::optional<LeftOut> left_out;           // when any pattern was given
  std::optional<ShardsRead> shards;          // a sharded run folder
  std::optional<VerdictComparison> compare;  // refinery report --compare
};

// `accepted`: keys of quarantined attempts a person accepted (RUN/accepted.jsonl,
// `refinery accept`): their speedups count; the other quarantined ones count as
// correct but not toward fast_p for p > 0 or the geomean, and are listed.
// `left_out`: problems (of `problems`) that fast_p and the other per-turn
// figures leave out, as config.leave_out (and refinery report --leave-out)
// chose them; the report lists them and says why.
// `labels`: a person's judgements (RUN/labels.jsonl, `refinery audit`).
// `arms`: the (model, strategy) pairs to report (runs read as one, run_data.h);
// by default every model of the config with every strategy.
CampaignReport campaign_report(const Config& config, const std::vector<std::string>& problems,
                               const std::vector<Attempt>& attempts, const std::vector<std::string>& left_out = {},
                               const std::vector<std::string>& leave_out_patterns = {},
                               const std::set<std::string>& accepted = {},
                               const std::map<std::string, Judgement>& labels = {},
                               const std::vector<std::pair<ModelConfig, StrategyConfig>>* arms = nullptr);

// `ours` against `theirs`, the attempts of the run folder `run`.
VerdictComparison compare_verdicts(const std::vector<Attempt>& ours, const std::vector<Attempt>& theirs,
                                   const std::string& run);

}  // namespace agent
