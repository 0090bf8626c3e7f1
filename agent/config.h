// An experiment's config: the YAML a researcher writes, decoded into typed
// structs. Every key is in one table per section; an unknown key, a wrong
// type or a missing required field is an error with file:line:col, the line,
// a caret and, for a misspelt key, the closest known one. Defaults are written
// beside each field. Plain data once loaded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "agent/campaign/strategy_kind.h"
#include "agent/model/provider_table.h"
#include "base/result.h"
#include "eval/settings.h"

namespace agent {

struct Price {
  double input = 0;         // USD per million input tokens
  double cached_input = 0;  // USD per million cached input tokens
  double output = 0;        // USD per million output tokens (reasoning included)
};

struct ModelConfig {
  std::string name;                      // required: the arm's label
  Provider provider = Provider::replay;  // required: a row of provider_table.h
  std::string model;                     // required except for replay: the API's model name
  std::string base_url;                  // default: the provider's public endpoint; required for openai_compatible
  std::string api_key_env;               // default: the provider row's (OPENAI_API_KEY, ANTHROPIC_API_KEY, none)
  std::optional<double> temperature;
  std::optional<double> top_p;
  int max_output_tokens = 16384;
  std::string reasoning_effort;  // openai: low | medium | high; empty = provider default
  int thinking_budget = 0;       // anthropic: extended thinking tokens; 0 = off
  Price price;
  int concurrency = 4;           // requests in flight to this model
  double request_timeout = 900;  // seconds; long enough for reasoning models
  double max_retry_wait = 300;   // seconds: the longest wait before a retry, Retry-After included
  std::string replay_from;       // replay: a responses file or a finished run folder
};

// What may be spent, in any of four units; an unset one is no limit. A
// strategy stops asking once one is spent. Attempts are never passed: a
// request counts from the moment it is asked, and a search's round is cut to
// the attempts left; tokens, dollars and GPU seconds are known only once an
// attempt is recorded, so the requests in flight then may pass them by at
// most their number (agent/campaign/ledger.h).
struct Budget {
  std::optional<int64_t> attempts;
  std::optional<int64_t> tokens;  // input + output
  std::optional<double> dollars;
  std::optional<double> gpu_seconds;  // evaluation worker time (Attempt::worker_s)
  bool any() const { return attempts || tokens || dollars || gpu_seconds; }
};

// An evolutionary search's shape (kind: evolve; strategy.h says how it runs).
struct Evolve {
  int islands = 2;        // populations evolving apart
  int per_island = 4;     // children asked per island each generation
  int archive = 8;        // an island's best members that parents are drawn from
  int inspirations = 2;   // other members of the island shown beside the parent (0-4)
  int migrate_every = 3;  // generations between migrations (each island's best to the next); 0 = never
};

struct StrategyConfig {
  std::string name;                                                          // required: the arm's label
  StrategyKind kind = StrategyKind::single_shot;                             // required: a row of strategy_kind.h
  int samples = 1;                                                           // independent chains per problem (K)
  int turns = 1;                                                             // turns per chain (T); 1 for single_shot
  std::vector<std::string> feedback = {"compile", "correctness", "timing"};  // also: profile
  History history = History::full;    // what earlier turns the prompt carries (refine)
  int stop_after_no_improvement = 0;  // stop a chain after this many turns without a better result; 0 = never
  int width = 4;                      // beam: the best kernels kept each round
  int branch = 2;                     // beam: the children asked of each kept kernel per round
  Evolve evolve;                      // evolve: islands, their children, inspirations, migration
  // Stop a chain (a search: a problem's) once its best correct kernel reaches
  // this fraction of the problem's speed-of-light bound (Attempt::sol_fraction,
  // cuda); unset: never.
  std::optional<double> stop_at_sol;
  Budget budget;          // per arm: each model with this strategy
  Budget problem_budget;  // per arm and problem
  // refinery's prompt (a C++/CUDA file with forward), or KernelBench's (a
  // Python ModelNew, its kernels in `kernels`; default: cuda on the cuda
  // backend, cpp on cpu, decided where the campaign starts).
  PromptStyle prompt = PromptStyle::refinery;
  std::optional<KernelLanguage> kernels;
  int shots = 1;         // kernelbench: examples of an answer the first prompt shows (0, 1 or 3)
  bool hardware = true;  // whether the first prompt names the hardware
  // The precision this strategy's attempts run at (eval.precision's values);
  // unset: the campaign's eval.precision.
  std::optional<eval::DType> precision;
  // The language of this strategy's candidates: python for a kernelbench
  // prompt, else the backend's.
  // A search over a tree of attempts per problem (beam, evolve), not samples x turns chains.
  bool branching() const;
  // Attempts per problem: samples x turns, a beam's width x branch x turns
  // (rounds), or evolve's islands x per_island x turns (generations).
  int attempts_per_problem() const;
  eval::LanguageId candidate_language(eval::Backend backend) const {
    return prompt == PromptStyle::kernelbench ? eval::LanguageId::python : eval::language_for(backend);
  }
};

struct ProblemSelection {
  std::vector<std::string> ids;  // level1/19, names or folders
  std::vector<int> levels;       // every problem of these levels
  eval::Size size = eval::Size::full;
};

struct Config {
  std::string path;
  std::string name;              // default: the file's stem; names the run folder
  std::optional<uint64_t> seed;  // master seed of the hidden inputs; unset: random per evaluation
  ProblemSelection problems;
  std::vector<ModelConfig> models;
  std::vector<StrategyConfig> strategies;
  // The eval: section (agent/eval_keys.h); problems.size and seed are given
  // to it where the campaign starts (cmd_run.cc).
  eval::EvalSettings eval;
  std::vector<double> thresholds = {0, 0.5, 0.8, 1, 1.5, 2};
  // Whether unstable attempts count toward fast_p for p > 0 and the geometric
  // mean (they always count as correct).
  bool count_unstable = false;
  // Whether fast_p counts only kernels that also pass the hidden shapes
  // (eval.hidden_shapes): a fails_hidden_shape attempt is then not correct;
  // false counts it as correct at the shown size, with its speedup.
  bool require_hidden = true;
  // Problems left out of fast_p, fast_p@k, the correct rate and the geomean
  // (not out of the attempt and cost counts): ids, ranges, set:NAME or
  // tag:NAME, as `problems.ids` takes them ("set:degenerate").
  std::vector<std::string> leave_out;
  // Keys given by an old name (eval.runners): each a note that refinery run prints.
  std::vector<std::string> notes;
  Budget budget;  // the whole campaign's
};

base::Result<Config> load_config(const std::string& path);
base::Result<Config> parse_config(const std::string& text, const std::string& display_name);

}  // namespace agent
