#include "agent/config.h"

#include <filesystem>

#include "base/fs.h"
#include "base/yaml_decode.h"

namespace agent {
namespace yaml = base::yaml;
using base::Error;
using base::Result;
using base::Status;

namespace {

const std::vector<std::string> kProviders = {"openai", "openai-responses", "anthropic", "replay"};
const std::vector<std::string> kKinds = {"single_shot", "refine", "best_of_k_refine"};
const std::vector<std::string> kFeedback = {"compile", "correctness", "timing", "profile"};

// Decoding helpers that read an optional key into a field of its type.
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
  Status number(const char* key, double& out, double min) const {
    if (!map[key]) return {};
    TRY_ASSIGN(out, yaml::as_double(doc, map[key], key));
    if (out < min) return doc.error_at(map[key], std::string("'") + key + "' must be at least " + std::to_string(min));
    return {};
  }
  Status number(const char* key, std::optional<double>& out, double min) const {
    if (!map[key]) return {};
    double v = 0;
    TRY(number(key, v, min));
    out = v;
    return {};
  }
  Status integer(const char* key, int& out, int min) const {
    if (!map[key]) return {};
    TRY_ASSIGN(int64_t v, yaml::as_int(doc, map[key], key));
    if (v < min) return doc.error_at(map[key], std::string("'") + key + "' must be at least " + std::to_string(min));
    out = static_cast<int>(v);
    return {};
  }
  Status required_text(const char* key, std::string& out, const std::string& what) const {
    TRY_ASSIGN(YAML::Node node, yaml::require(doc, map, key, what));
    TRY_ASSIGN(out, yaml::as_string(doc, node, key));
    return {};
  }
};

Result<ModelConfig> decode_model(const yaml::Document& doc, const YAML::Node& node) {
  TRY(yaml::expect_map(doc, node, "a model"));
  ModelConfig m;
  Reader r{doc, node};
  TRY(r.required_text("name", m.name, "model"));
  const std::string what = "model '" + m.name + "'";
  TRY(yaml::check_keys(doc, node,
                       {"name", "provider", "model", "base_url", "api_key_env", "temperature", "top_p",
                        "max_output_tokens", "reasoning_effort", "thinking_budget", "price", "concurrency",
                        "request_timeout", "replay_from"},
                       what));
  TRY_ASSIGN(YAML::Node provider, yaml::require(doc, node, "provider", what));
  TRY_ASSIGN(m.provider, yaml::as_choice(doc, provider, "provider", kProviders));
  if (m.provider == "replay") {
    TRY(r.required_text("replay_from", m.replay_from, what + " (provider replay)"));
    TRY(r.text("model", m.model));
  } else {
    TRY(r.required_text("model", m.model, what));
    if (node["replay_from"]) return doc.error_at(node["replay_from"], "'replay_from' is only for provider replay");
    m.api_key_env = m.provider == "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  }
  TRY(r.text("base_url", m.base_url));
  TRY(r.text("api_key_env", m.api_key_env));
  TRY(r.number("temperature", m.temperature, 0));
  TRY(r.number("top_p", m.top_p, 0));
  TRY(r.integer("max_output_tokens", m.max_output_tokens, 1));
  TRY(r.choice("reasoning_effort", m.reasoning_effort, {"minimal", "low", "medium", "high"}));
  TRY(r.integer("thinking_budget", m.thinking_budget, 0));
  TRY(r.integer("concurrency", m.concurrency, 1));
  TRY(r.number("request_timeout", m.request_timeout, 1));
  if (node["price"]) {
    const YAML::Node& p = node["price"];
    TRY(yaml::expect_map(doc, p, "'price'"));
    TRY(yaml::check_keys(doc, p, {"input", "cached_input", "output"}, "price of " + what));
    Reader pr{doc, p};
    TRY(pr.number("input", m.price.input, 0));
    TRY(pr.number("cached_input", m.price.cached_input, 0));
    TRY(pr.number("output", m.price.output, 0));
  }
  return m;
}

Result<StrategyConfig> decode_strategy(const yaml::Document& doc, const YAML::Node& node) {
  TRY(yaml::expect_map(doc, node, "a strategy"));
  StrategyConfig s;
  Reader r{doc, node};
  TRY(r.required_text("name", s.name, "strategy"));
  const std::string what = "strategy '" + s.name + "'";
  TRY(yaml::check_keys(doc, node,
                       {"name", "kind", "samples", "turns", "feedback", "history", "stop_after_no_improvement"},
                       what));
  TRY_ASSIGN(YAML::Node kind, yaml::require(doc, node, "kind", what));
  TRY_ASSIGN(s.kind, yaml::as_choice(doc, kind, "kind", kKinds));
  TRY(r.integer("samples", s.samples, 1));
  TRY(r.integer("turns", s.turns, 1));
  if (s.kind == "single_shot" && s.turns != 1)
    return doc.error_at(node["turns"], "a single_shot strategy has one turn; use refine for more");
  if (node["feedback"]) {
    TRY(yaml::expect_sequence(doc, node["feedback"], "'feedback'"));
    s.feedback.clear();
    for (const auto& f : node["feedback"]) {
      TRY_ASSIGN(std::string kind_name, yaml::as_choice(doc, f, "feedback", kFeedback));
      s.feedback.push_back(kind_name);
    }
  }
  TRY(r.choice("history", s.history, {"full", "last"}));
  TRY(r.integer("stop_after_no_improvement", s.stop_after_no_improvement, 0));
  return s;
}

}  // namespace

Result<Config> parse_config(const std::string& text, const std::string& display_name) {
  TRY_ASSIGN(yaml::Document doc, yaml::Document::parse(text, display_name));
  const YAML::Node& root = doc.root();
  TRY(yaml::expect_map(doc, root, "the config"));
  TRY(yaml::check_keys(doc, root, {"name", "seed", "problems", "models", "strategies", "eval", "report"}, "config"));
  Config c;
  c.path = display_name;
  c.name = std::filesystem::path(display_name).stem().string();
  Reader r{doc, root};
  TRY(r.text("name", c.name));
  if (root["seed"]) {
    TRY_ASSIGN(int64_t seed, yaml::as_int(doc, root["seed"], "seed"));
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
      TRY_ASSIGN(int64_t l, yaml::as_int(doc, level, "levels"));
      if (l < 1 || l > 4) return doc.error_at(level, "levels are 1 to 4");
      c.problems.levels.push_back(static_cast<int>(l));
    }
  }
  if (c.problems.ids.empty() && c.problems.levels.empty())
    return doc.error_at(problems, "'problems' selects nothing: give 'ids' or 'levels'");
  TRY((Reader{doc, problems}.choice("size", c.problems.size, {"full", "small"})));

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

  if (root["eval"]) {
    const YAML::Node& e = root["eval"];
    TRY(yaml::expect_map(doc, e, "'eval'"));
    TRY(yaml::check_keys(doc, e, {"backend", "trials", "atol", "rtol", "timeout", "timing_trials", "profiler", "metrics",
                                     "allow_untrusted"},
                         "eval"));
    Reader er{doc, e};
    TRY(er.choice("backend", c.eval.backend, {"auto", "cpu", "cuda"}));
    TRY(er.integer("trials", c.eval.trials, 1));
    TRY(er.number("atol", c.eval.atol, 0));
    TRY(er.number("rtol", c.eval.rtol, 0));
    TRY(er.number("timeout", c.eval.timeout, 1));
    TRY(er.integer("timing_trials", c.eval.timing_trials, 1));
    TRY(er.choice("profiler", c.eval.profiler, {"auto", "cupti", "ncu", "none"}));
    std::string allow = "false";
    TRY(er.choice("allow_untrusted", allow, {"true", "false"}));
    c.eval.allow_untrusted = allow == "true";
    if (e["metrics"]) {
      TRY(yaml::expect_sequence(doc, e["metrics"], "'metrics'"));
      for (const auto& m : e["metrics"]) {
        TRY_ASSIGN(std::string name, yaml::as_string(doc, m, "metrics"));
        c.eval.metrics.push_back(name);
      }
    }
  }
  if (root["report"]) {
    const YAML::Node& rep = root["report"];
    TRY(yaml::expect_map(doc, rep, "'report'"));
    TRY(yaml::check_keys(doc, rep, {"thresholds"}, "report"));
    if (rep["thresholds"]) {
      TRY(yaml::expect_sequence(doc, rep["thresholds"], "'thresholds'"));
      c.thresholds.clear();
      for (const auto& t : rep["thresholds"]) {
        TRY_ASSIGN(double v, yaml::as_double(doc, t, "thresholds"));
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

}  // namespace agent
