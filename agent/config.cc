#include "agent/config.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>

#include "agent/eval_keys.h"
#include "base/fs.h"
#include "base/table.h"
#include "base/text.h"
#include "base/yaml_decode.h"

namespace agent {
namespace yaml = base::yaml;
using base::Error;
using base::Result;
using base::Status;

namespace {

const std::vector<std::string> kFeedback = {"compile", "correctness", "timing", "runtime", "profile"};

// A closed set's row, named at `node`: an unknown name is an error naming
// the allowed ones (or the close one).
template <class Row>
Result<const Row*> as_row(const yaml::Document& doc, const YAML::Node& node, const char* key,
                          std::span<const Row> rows) {
  TRY_ASSIGN(std::string name, yaml::as_choice(doc, node, key, base::row_names(rows)));
  return base::find_row(rows, name, key);
}

// Decoding helpers that read an optional key into a field of its type, range-checked.
struct Reader {
  const yaml::Document& doc;
  const YAML::Node& map;

  Status text(const char* key, std::string& out) const {
    if (!map[key]) return {};
    TRY_ASSIGN(out, yaml::as_string(doc, map[key], key));
    return {};
  }
  Status choice(const char* key, std::string& out, const std::vector<std::string>& choices) const {
    if (!map[key]) return {};
    TRY_ASSIGN(out, yaml::as_choice(doc, map[key], key, choices));
    return {};
  }
  Status number(const char* key, double& out, double min, double max) const {
    if (!map[key]) return {};
    TRY_ASSIGN(out, yaml::as_double_in(doc, map[key], key, min, max));
    return {};
  }
  Status number(const char* key, std::optional<double>& out, double min, double max) const {
    if (!map[key]) return {};
    double v = 0;
    TRY(number(key, v, min, max));
    out = v;
    return {};
  }
  Status boolean(const char* key, bool& out) const {
    if (!map[key]) return {};
    TRY_ASSIGN(out, yaml::as_bool(doc, map[key], key));
    return {};
  }
  Status integer(const char* key, int& out, int min, int max) const {
    if (!map[key]) return {};
    TRY_ASSIGN(int64_t v, yaml::as_int_in(doc, map[key], key, min, max));
    out = static_cast<int>(v);
    return {};
  }
  Status required_text(const char* key, std::string& out, const std::string& what) const {
    TRY_ASSIGN(YAML::Node node, yaml::require(doc, map, key, what));
    TRY_ASSIGN(out, yaml::as_string(doc, node, key));
    return {};
  }
  // A name that becomes a folder of the run: checked before it is used.
  Status name(const char* key, std::string& out, const std::string& what) const {
    TRY(required_text(key, out, what));
    if (auto why = base::path_component_problem(out))
      return doc.error_at(map[key], "'" + out + "' cannot name " + what + ": " + *why +
                                        " (use letters, digits, '.', '_', '-' and '+')");
    return {};
  }
};

// Keys each provider takes beyond name and provider.
const std::vector<std::string> kReplayKeys = {"replay_from", "model", "concurrency", "price"};
const std::vector<std::string> kHttpKeys = {"model",           "base_url",          "api_key_env", "temperature",
                                            "top_p",           "max_output_tokens", "price",       "concurrency",
                                            "request_timeout", "max_retry_wait"};

Result<ModelConfig> decode_model(const yaml::Document& doc, const YAML::Node& node) {
  TRY(yaml::expect_map(doc, node, "a model"));
  ModelConfig m;
  Reader r{doc, node};
  TRY(r.name("name", m.name, "a model"));
  const std::string what = "model '" + m.name + "'";
  std::vector<std::string> all = {"name", "provider", "reasoning_effort", "thinking_budget", "replay_from"};
  all.insert(all.end(), kHttpKeys.begin(), kHttpKeys.end());
  TRY(yaml::check_keys(doc, node, all, what));
  TRY_ASSIGN(YAML::Node provider, yaml::require(doc, node, "provider", what));
  TRY_ASSIGN(const ProviderRow* found, as_row(doc, provider, "provider", providers()));
  const ProviderRow& row = *found;
  const std::string provider_name = row.name;
  m.provider = row.id;
  // A key that the provider would ignore is an error: a setting that silently
  // does nothing makes a wrong experiment that looks right.
  std::vector<std::string> applies = {"name", "provider"};
  const auto& extra = over_http(row.api) ? kHttpKeys : kReplayKeys;
  applies.insert(applies.end(), extra.begin(), extra.end());
  if (*row.reasoning_key) applies.push_back(row.reasoning_key);
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.Scalar();
    if (std::find(applies.begin(), applies.end(), key) == applies.end())
      return doc.error_at(it->first, "'" + key + "' does not apply to provider " + provider_name + " (" + what + ")");
  }
  if (over_http(row.api)) {
    TRY(r.required_text("model", m.model, what));
    m.api_key_env = row.api_key_env;
    // A provider without a public endpoint is a server of the config's choosing.
    if (!*row.base_url) TRY(r.required_text("base_url", m.base_url, what + " (provider " + provider_name + ")"));
  } else {
    TRY(r.required_text("replay_from", m.replay_from, what + " (provider " + provider_name + ")"));
    TRY(r.text("model", m.model));
  }
  TRY(r.text("base_url", m.base_url));
  TRY(r.text("api_key_env", m.api_key_env));
  TRY(r.number("temperature", m.temperature, 0, 2));
  TRY(r.number("top_p", m.top_p, 0, 1));
  TRY(r.integer("max_output_tokens", m.max_output_tokens, 1, 10'000'000));
  TRY(r.choice("reasoning_effort", m.reasoning_effort, {"minimal", "low", "medium", "high"}));
  TRY(r.integer("thinking_budget", m.thinking_budget, 0, 10'000'000));
  if (m.thinking_budget > 0 && (m.thinking_budget < 1024 || m.thinking_budget >= m.max_output_tokens))
    return doc.error_at(node["thinking_budget"],
                        "'thinking_budget' must be at least 1024 and below max_output_tokens (" +
                            std::to_string(m.max_output_tokens) + "), or 0 for off");
  TRY(r.integer("concurrency", m.concurrency, 1, 1024));
  TRY(r.number("request_timeout", m.request_timeout, 1, 86400));
  TRY(r.number("max_retry_wait", m.max_retry_wait, 0, 86400));
  if (node["price"]) {
    const YAML::Node& p = node["price"];
    TRY(yaml::expect_map(doc, p, "'price'"));
    TRY(yaml::check_keys(doc, p, {"input", "cached_input", "output"}, "price of " + what));
    Reader pr{doc, p};
    TRY(pr.number("input", m.price.input, 0, 10000));
    TRY(pr.number("cached_input", m.price.cached_input, 0, 10000));
    TRY(pr.number("output", m.price.output, 0, 10000));
  }
  return m;
}

Result<Budget> decode_budget(const yaml::Document& doc, const YAML::Node& node, const std::string& what) {
  TRY(yaml::expect_map(doc, node, what));
  TRY(yaml::check_keys(doc, node, {"attempts", "tokens", "dollars", "gpu_seconds"}, what));
  Budget b;
  Reader r{doc, node};
  for (auto [key, out] : {std::pair{"attempts", &b.attempts}, std::pair{"tokens", &b.tokens}})
    if (node[key]) {
      TRY_ASSIGN(double v, yaml::as_double_in(doc, node[key], key, 1, 1e15));
      if (v != static_cast<double>(static_cast<int64_t>(v)))
        return doc.error_at(node[key], std::string("'") + key + "' is a whole number");
      *out = static_cast<int64_t>(v);
    }
  TRY(r.number("dollars", b.dollars, 0, 1e9));
  TRY(r.number("gpu_seconds", b.gpu_seconds, 0, 1e12));
  return b;
}

Result<StrategyConfig> decode_strategy(const yaml::Document& doc, const YAML::Node& node) {
  TRY(yaml::expect_map(doc, node, "a strategy"));
  StrategyConfig s;
  Reader r{doc, node};
  TRY(r.name("name", s.name, "a strategy"));
  const std::string what = "strategy '" + s.name + "'";
  TRY(yaml::check_keys(
      doc, node,
      {"name",         "kind",          "samples",     "turns",  "feedback", "history",    "stop_after_no_improvement",
       "prompt",       "kernels",       "width",       "branch", "islands",  "per_island", "archive",
       "inspirations", "migrate_every", "stop_at_sol", "shots",  "hardware", "budget",     "problem_budget",
       "precision"},
      what));
  TRY_ASSIGN(YAML::Node kind, yaml::require(doc, node, "kind", what));
  TRY_ASSIGN(const StrategyKindRow* kind_row, as_row(doc, kind, "kind", strategy_kinds()));
  s.kind = kind_row->id;
  TRY(r.integer("samples", s.samples, 1, 1000));
  TRY(r.integer("turns", s.turns, 1, 100));
  if (s.kind == StrategyKind::single_shot && s.turns != 1)
    return doc.error_at(node["turns"], "a single_shot strategy has one turn; use refine for more");
  if (node["budget"]) {
    TRY_ASSIGN(s.budget, decode_budget(doc, node["budget"], what + "'s budget"));
  }
  if (node["problem_budget"]) {
    TRY_ASSIGN(s.problem_budget, decode_budget(doc, node["problem_budget"], what + "'s problem_budget"));
  }
  TRY(r.integer("width", s.width, 1, 64));
  TRY(r.integer("branch", s.branch, 1, 64));
  if (s.kind != StrategyKind::beam)
    for (const char* key : {"width", "branch"})
      if (node[key]) return doc.error_at(node[key], std::string("'") + key + "' shapes a beam; add kind: beam");
  TRY(r.integer("islands", s.evolve.islands, 1, 64));
  TRY(r.integer("per_island", s.evolve.per_island, 1, 64));
  TRY(r.integer("archive", s.evolve.archive, 1, 1000));
  TRY(r.integer("inspirations", s.evolve.inspirations, 0, 4));
  TRY(r.integer("migrate_every", s.evolve.migrate_every, 0, 100));
  if (s.kind != StrategyKind::evolve)
    for (const char* key : {"islands", "per_island", "archive", "inspirations", "migrate_every"})
      if (node[key])
        return doc.error_at(node[key], std::string("'") + key + "' shapes an evolve search; add kind: evolve");
  if (s.kind == StrategyKind::beam && node["samples"])
    return doc.error_at(node["samples"], "a beam has no samples: its first round asks width x branch first attempts");
  if (s.kind == StrategyKind::evolve && node["samples"])
    return doc.error_at(node["samples"],
                        "an evolve search has no samples: each generation asks islands x per_island children");
  if (s.branching() && node["history"])
    return doc.error_at(node["history"], "a search's child carries its parent's answer and feedback; no history");
  TRY(r.number("stop_at_sol", s.stop_at_sol, 0.01, 1));
  if (node["feedback"]) {
    TRY(yaml::expect_sequence(doc, node["feedback"], "'feedback'"));
    s.feedback.clear();
    for (const auto& f : node["feedback"]) {
      TRY_ASSIGN(std::string kind_name, yaml::as_choice(doc, f, "feedback", kFeedback));
      s.feedback.push_back(kind_name);
    }
  }
  if (node["history"]) {
    TRY_ASSIGN(const HistoryRow* history, as_row(doc, node["history"], "history", histories()));
    s.history = history->id;
  }
  TRY(r.integer("stop_after_no_improvement", s.stop_after_no_improvement, 0, 100));
  if (node["prompt"]) {
    TRY_ASSIGN(const PromptStyleRow* prompt, as_row(doc, node["prompt"], "prompt", prompt_styles()));
    s.prompt = prompt->id;
  }
  if (node["kernels"]) {
    if (s.prompt != PromptStyle::kernelbench)
      return doc.error_at(node["kernels"],
                          "'kernels' chooses what a kernelbench prompt asks for; add prompt: kernelbench");
    TRY_ASSIGN(const KernelLanguageRow* kernels, as_row(doc, node["kernels"], "kernels", kernel_languages()));
    s.kernels = kernels->id;
  }
  if (node["shots"]) {
    if (s.prompt != PromptStyle::kernelbench)
      return doc.error_at(node["shots"],
                          "'shots' sets how many examples a kernelbench prompt shows (refinery's "
                          "prompt shows none); add prompt: kernelbench");
    TRY(r.integer("shots", s.shots, 0, 3));
    if (s.shots == 2) return doc.error_at(node["shots"], "'shots' is 0, 1 or 3 (zero-, one- or few-shot)");
  }
  TRY(r.boolean("hardware", s.hardware));
  if (node["precision"]) {
    TRY_ASSIGN(std::string name, yaml::as_choice(doc, node["precision"], "precision", eval::precision_names()));
    s.precision = eval::parse_precision(name);
  }
  return s;
}

}  // namespace

Result<Config> parse_config(const std::string& text, const std::string& display_name) {
  TRY_ASSIGN(yaml::Document doc, yaml::Document::parse(text, display_name));
  const YAML::Node& root = doc.root();
  TRY(yaml::expect_map(doc, root, "the config"));
  TRY(yaml::check_keys(doc, root, {"name", "seed", "problems", "models", "strategies", "eval", "report", "budget"},
                       "config"));
  Config c;
  c.path = display_name;
  if (root["budget"]) {
    TRY_ASSIGN(c.budget, decode_budget(doc, root["budget"], "the campaign's budget"));
  }
  c.name = std::filesystem::path(display_name).stem().string();
  Reader r{doc, root};
  if (root["name"])
    TRY(r.name("name", c.name, "a campaign"));
  else if (auto why = base::path_component_problem(c.name))
    return Error{display_name + ": the file's stem '" + c.name + "' cannot name the campaign (" + *why +
                 "): give the config a 'name'"};
  if (root["seed"]) {
    TRY_ASSIGN(int64_t seed, yaml::as_int_in(doc, root["seed"], "seed", 0, INT64_MAX));
    c.seed = static_cast<uint64_t>(seed);
  }

  TRY_ASSIGN(YAML::Node problems, yaml::require(doc, root, "problems", "config"));
  TRY(yaml::expect_map(doc, problems, "'problems'"));
  TRY(yaml::check_keys(doc, problems, {"ids", "levels", "size"}, "problems"));
  if (problems["ids"]) {
    TRY(yaml::expect_sequence(doc, problems["ids"], "'ids'"));
    for (const auto& id : problems["ids"]) {
      TRY_ASSIGN(std::string s, yaml::as_string(doc, id, "ids"));
      c.problems.ids.push_back(s);
    }
  }
  if (problems["levels"]) {
    TRY(yaml::expect_sequence(doc, problems["levels"], "'levels'"));
    for (const auto& level : problems["levels"]) {
      TRY_ASSIGN(int64_t l, yaml::as_int_in(doc, level, "levels", 1, 4));
      c.problems.levels.push_back(static_cast<int>(l));
    }
  }
  if (c.problems.ids.empty() && c.problems.levels.empty())
    return doc.error_at(problems, "'problems' selects nothing: give 'ids' or 'levels'");
  std::string size = eval::to_string(c.problems.size);
  TRY((Reader{doc, problems}.choice("size", size, {"full", "small"})));
  c.problems.size = *eval::parse_size(size);

  TRY_ASSIGN(YAML::Node models, yaml::require(doc, root, "models", "config"));
  TRY(yaml::expect_sequence(doc, models, "'models'"));
  for (const auto& node : models) {
    TRY_ASSIGN(ModelConfig m, decode_model(doc, node));
    for (const auto& other : c.models)
      if (other.name == m.name) return doc.error_at(node, "two models are named '" + m.name + "'");
    c.models.push_back(std::move(m));
  }
  TRY_ASSIGN(YAML::Node strategies, yaml::require(doc, root, "strategies", "config"));
  TRY(yaml::expect_sequence(doc, strategies, "'strategies'"));
  for (const auto& node : strategies) {
    TRY_ASSIGN(StrategyConfig s, decode_strategy(doc, node));
    for (const auto& other : c.strategies)
      if (other.name == s.name) return doc.error_at(node, "two strategies are named '" + s.name + "'");
    c.strategies.push_back(std::move(s));
  }
  if (c.models.empty()) return doc.error_at(models, "'models' is empty");
  if (c.strategies.empty()) return doc.error_at(strategies, "'strategies' is empty");

  if (root["eval"]) TRY(decode_eval_section(doc, root["eval"], c.eval, &c.notes));
  if (root["report"]) {
    const YAML::Node& rep = root["report"];
    TRY(yaml::expect_map(doc, rep, "'report'"));
    TRY(yaml::check_keys(doc, rep, {"thresholds", "count_unstable", "leave_out", "require_hidden"}, "report"));
    if (rep["leave_out"]) {
      TRY(yaml::expect_sequence(doc, rep["leave_out"], "'leave_out'"));
      for (const auto& p : rep["leave_out"]) {
        TRY_ASSIGN(std::string pattern, yaml::as_string(doc, p, "leave_out"));
        c.leave_out.push_back(pattern);
      }
    }
    std::string count = "false";
    TRY((Reader{doc, rep}.choice("count_unstable", count, {"true", "false"})));
    c.count_unstable = count == "true";
    TRY((Reader{doc, rep}.boolean("require_hidden", c.require_hidden)));
    if (rep["thresholds"]) {
      TRY(yaml::expect_sequence(doc, rep["thresholds"], "'thresholds'"));
      c.thresholds.clear();
      for (const auto& t : rep["thresholds"]) {
        TRY_ASSIGN(double v, yaml::as_double_in(doc, t, "thresholds", 0, 1000));
        c.thresholds.push_back(v);
      }
    }
  }
  return c;
}

Result<Config> load_config(const std::string& path) {
  TRY_ASSIGN(std::string text, base::read_file(path));
  return parse_config(text, path);
}

int StrategyConfig::attempts_per_problem() const {
  switch (kind) {
    case StrategyKind::single_shot:
    case StrategyKind::refine:
    case StrategyKind::best_of_k_refine:
      return samples * turns;
    case StrategyKind::beam:
      return width * branch * turns;
    case StrategyKind::evolve:
      return evolve.islands * evolve.per_island * turns;
  }
  return samples * turns;
}

bool StrategyConfig::branching() const {
  for (const auto& row : strategy_kinds())
    if (row.id == kind) return row.branching;
  return false;
}

}  // namespace agent
