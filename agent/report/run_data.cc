#include "agent/report/run_data.h"

#include <filesystem>
#include <map>

#include "agent/campaign/run_store.h"
#include "agent/campaign/shard.h"
#include "agent/cli/accepted.h"
#include "base/fs.h"

namespace agent {
namespace fs = std::filesystem;

namespace {

std::string number(const std::optional<double>& v) {
  return v ? std::to_string(*v) : "default";
}

// What makes two models of one name the same model, as text.
std::string identity(const ModelConfig& m) {
  return std::to_string(static_cast<int>(m.provider)) + "|" + m.model + "|" + m.base_url + "|" + number(m.temperature) +
         "|" + number(m.top_p) + "|" + std::to_string(m.max_output_tokens) + "|" + m.reasoning_effort + "|" +
         std::to_string(m.thinking_budget);
}

std::string identity(const StrategyConfig& s) {
  std::string feedback;
  for (const auto& f : s.feedback) feedback += f + ",";
  return to_string(s.kind) + "|" + std::to_string(s.samples) + "|" + std::to_string(s.turns) + "|" + feedback + "|" +
         to_string(s.history) + "|" + std::to_string(s.stop_after_no_improvement) + "|" +
         std::to_string(static_cast<int>(s.prompt)) + "|" +
         (s.kernels ? std::to_string(static_cast<int>(*s.kernels)) : "-");
}

// The evaluation and the figures' settings, as text, for the runs' configs to agree on.
std::string evaluation(const Config& c) {
  std::string thresholds;
  for (double t : c.thresholds) thresholds += std::to_string(t) + ",";
  return "backend " + eval::to_string(c.eval.backend) + ", size " + eval::to_string(c.problems.size) + ", mode " +
         eval::to_string(c.eval.mode) + ", library_only " + std::to_string(static_cast<int>(c.eval.library_only)) +
         ", thresholds " + thresholds + " count_unstable " + (c.count_unstable ? "true" : "false");
}

// RUN/budget.jsonl into `into` (chain -> budget); none when absent.
base::Status read_budget_ends(const std::string& folder, std::map<std::string, std::string>& into) {
  TRY_ASSIGN(auto rows, read_object_lines(folder + "/budget.jsonl", "with model, strategy, problem, sample, budget"));
  for (const auto& [line, j] : rows) {
    auto text = [&](const char* k) {
      auto it = j.find(k);
      return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    auto sample = j.find("sample");
    into[chain_key(text("model"), text("strategy"), text("problem"),
                   sample != j.end() && sample->is_number_integer() ? sample->get<int>() : 0)] = text("budget");
  }
  return {};
}

std::string artifact(const std::string& root, const Attempt& a) {
  return (fs::path(root) / "attempts" / a.key.model / a.key.strategy / a.key.problem /
          ("s" + std::to_string(a.key.sample)) / ("t" + std::to_string(a.key.turn)))
      .string();
}

base::Result<RunData> load_sharded(const std::string& folder) {
  TRY_ASSIGN(ShardedRun sharded, read_shards(folder));
  TRY_ASSIGN(Config config, parse_config(sharded.config_text, folder + "/shards/config.yaml"));
  RunData run;
  run.runs = {folder};
  run.config = config;
  run.problems = sharded.selection;
  run.shards = ShardsRead{sharded.count, sharded.dirs.size(), sharded.problems};
  run.shard_problems = sharded.problems;
  for (auto& a : sharded.attempts) {
    const int shard = shard_of(chain_key(a.key.model, a.key.strategy, a.key.problem, a.key.sample), sharded.count);
    run.attempt_dirs.push_back(artifact(folder + "/shards/" + std::to_string(shard), a));
    run.attempts.push_back(std::move(a));
  }
  for (const auto& dir : sharded.dirs) TRY(read_budget_ends(dir, run.budget_ends));
  // A person's judgements of a sharded run are kept beside its shards.
  TRY_ASSIGN(run.accepted, read_accepted(folder));
  TRY_ASSIGN(run.labels, read_labels(folder));
  return run;
}

}  // namespace

base::Result<RunData> load_run(const std::string& folder) {
  RunData run;
  if (!fs::exists(folder + "/config.yaml") && fs::is_directory(folder + "/shards")) {
    TRY_ASSIGN(run, load_sharded(folder));
  } else {
    auto config_text = base::read_file(folder + "/config.yaml");
    auto selection_text = base::read_file(folder + "/selection.json");
    if (!config_text || !selection_text)
      return base::Error{folder + " is not a run folder (no config.yaml or selection.json)"};
    TRY_ASSIGN(run.config, parse_config(*config_text, folder + "/config.yaml"));
    auto selection = nlohmann::json::parse(*selection_text, nullptr, false);
    if (selection.is_discarded() || !selection.is_array())
      return base::Error{folder + "/selection.json is not a JSON list of problem ids"};
    for (const auto& id : selection)
      if (id.is_string()) run.problems.push_back(id.get<std::string>());
    TRY_ASSIGN(RunStore store, RunStore::open(folder, *config_text, false, /*exclusive=*/false));
    run.attempts = store.attempts();
    for (const auto& a : run.attempts) run.attempt_dirs.push_back(artifact(folder, a));
    run.runs = {folder};
    TRY_ASSIGN(run.accepted, read_accepted(folder));
    TRY_ASSIGN(run.labels, read_labels(folder));
    TRY(read_budget_ends(folder, run.budget_ends));
  }
  for (const auto& m : run.config.models)
    for (const auto& s : run.config.strategies) run.arms.push_back({m, s});
  return run;
}

base::Result<RunData> merge_runs(std::vector<RunData> runs) {
  if (runs.empty()) return base::Error{"no run folder to read"};
  if (runs.size() == 1) return std::move(runs.front());
  RunData out = runs.front();
  out.config.name.clear();
  out.attempts.clear();
  out.attempt_dirs.clear();
  out.arms.clear();
  out.problems.clear();
  out.runs.clear();
  out.accepted.clear();
  out.labels.clear();
  out.shards.reset();
  out.budget_ends.clear();
  std::map<std::string, ModelConfig> models;
  std::map<std::string, StrategyConfig> strategies;
  std::map<std::string, std::string> model_from, strategy_from, key_from;      // name -> identity; key -> run
  std::map<std::pair<std::string, std::string>, std::set<std::string>> asked;  // arm -> problems
  std::set<std::string> all_problems;
  const std::string first = runs.front().runs.front();
  // A model or strategy of one name is the same in every run that names it.
  auto same_everywhere = [](const std::string& kind, const std::string& label, const std::string& id,
                            std::map<std::string, std::string>& seen, const std::string& run) -> base::Status {
    if (auto it = seen.find(label); it != seen.end() && it->second != id)
      return base::Error{"cannot read these runs as one campaign: the " + kind + " '" + label + "' in " + run +
                         " is not the one of that name in an earlier run folder"};
    seen[label] = id;
    return {};
  };
  for (auto& run : runs) {
    const std::string& name = run.runs.front();
    if (evaluation(run.config) != evaluation(runs.front().config))
      return base::Error{"cannot read " + first + " and " + name + " as one campaign: they evaluate differently (" +
                         evaluation(runs.front().config) + " against " + evaluation(run.config) + ")"};
    for (const auto& [m, s] : run.arms) {
      TRY(same_everywhere("model", m.name, identity(m), model_from, name));
      TRY(same_everywhere("strategy", s.name, identity(s), strategy_from, name));
      bool known_arm = false;
      for (const auto& [om, os] : out.arms) known_arm |= om.name == m.name && os.name == s.name;
      if (!known_arm) out.arms.push_back({m, s});
      for (const auto& p : run.problems) asked[{m.name, s.name}].insert(p);
      models[m.name] = m;
      strategies[s.name] = s;
    }
    for (const auto& p : run.problems)
      if (all_problems.insert(p).second) out.problems.push_back(p);
    for (size_t i = 0; i < run.attempts.size(); ++i) {
      const std::string key = run.attempts[i].key.str();
      if (auto it = key_from.find(key); it != key_from.end())
        return base::Error{"cannot read these runs as one campaign: the attempt " + key + " is in both " + it->second +
                           " and " + name};
      key_from[key] = name;
      out.attempts.push_back(std::move(run.attempts[i]));
      out.attempt_dirs.push_back(run.attempt_dirs[i]);
    }
    out.accepted.insert(run.accepted.begin(), run.accepted.end());
    out.budget_ends.insert(run.budget_ends.begin(), run.budget_ends.end());
    for (auto& [k, j] : run.labels) out.labels[k] = j;
    out.runs.push_back(name);
    out.config.name += (out.config.name.empty() ? "" : " + ") + run.config.name;
    for (const auto& line : run.shard_problems) out.shard_problems.push_back(name + ": " + line);
  }
  for (const auto& [arm, problems] : asked)
    if (problems.size() != all_problems.size())
      return base::Error{"cannot read these runs as one campaign: the arm " + arm.first + " x " + arm.second +
                         " was asked " + std::to_string(problems.size()) + " of the " +
                         std::to_string(all_problems.size()) +
                         " problems the runs selected together (report them one by one, or compare them with "
                         "`refinery compare`, which pairs the problems both were asked)"};
  out.config.models.clear();
  out.config.strategies.clear();
  for (const auto& [name, m] : models) out.config.models.push_back(m);
  for (const auto& [name, s] : strategies) out.config.strategies.push_back(s);
  return out;
}

base::Result<RunData> load_runs(const std::vector<std::string>& folders) {
  std::vector<RunData> runs;
  for (const auto& folder : folders) {
    TRY_ASSIGN(RunData run, load_run(folder));
    runs.push_back(std::move(run));
  }
  return merge_runs(std::move(runs));
}

}  // namespace agent
