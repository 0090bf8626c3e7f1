// What a report reads from run folders: the config, the problem selection, the
// attempts and a person's judgements (accepted.jsonl, labels.jsonl). One run
// folder, a sharded one (agent/campaign/shard.h), or several read as one
// campaign when their configs allow it:
//
//   - the same evaluation (backend, size, eval.compat mode, library_only) and
//     the same thresholds and count_unstable: otherwise their verdicts and
//     figures do not mean the same;
//   - a model or strategy named in two runs is the same in both (provider,
//     model, temperature, ...; kind, samples, turns, feedback, prompt, ...);
//   - no attempt is in two runs, and every arm was asked every problem of the
//     union (each arm's denominator is the whole selection).
//
// The merged config's arms are the runs' own (model x strategy) pairs, not
// every model with every strategy. Each attempt keeps the folder it came
// from, so that links point at its files.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "agent/campaign/attempt.h"
#include "agent/campaign/label.h"
#include "agent/config.h"
#include "agent/report/run_report.h"

namespace agent {

struct RunData {
  std::vector<std::string> runs;  // the folders read
  Config config;
  std::vector<std::pair<ModelConfig, StrategyConfig>> arms;
  std::vector<std::string> problems;  // the selection, in order
  std::vector<Attempt> attempts;
  std::vector<std::string> attempt_dirs;  // per attempt: its artifact folder
  std::set<std::string> accepted;
  std::map<std::string, Judgement> labels;
  std::optional<ShardsRead> shards;
  std::vector<std::string> shard_problems;  // what read_shards found wrong, one line each
  // RUN/budget.jsonl: the chains (model/strategy/problem/sK) a budget ended, with the budget ("arm tokens").
  std::map<std::string, std::string> budget_ends;
};

// One run folder (plain or sharded).
base::Result<RunData> load_run(const std::string& folder);

// Several as one campaign, or an Error saying which rule they break.
base::Result<RunData> merge_runs(std::vector<RunData> runs);

// Each folder loaded, then merged: what `refinery report` and `export` read.
base::Result<RunData> load_runs(const std::vector<std::string>& folders);

}  // namespace agent
