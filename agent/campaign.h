// Running a campaign: every chain of a config (model x strategy x problem x
// sample), turn after turn, into a run store.
//
// A chain's turn: build the messages (the first-turn prompt, then each earlier
// response and its feedback, or only the last with history: last), get the
// response (from the store if it was already received, else from the model,
// recorded the moment it arrives), extract the code, evaluate it, record the
// attempt and its artifacts, and render the feedback for the next turn. A
// finished attempt found in the store is not run again: its recorded response
// and feedback rebuild the history, so a resumed chain continues where it
// stopped.
//
// Chains run on a pool of threads; the model client limits requests per
// model, the compile service compiles per core, and the evaluator runs one
// worker at a time. `stop` is polled between turns: once set, no new turn
// starts and what runs finishes (Ctrl-C).
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "agent/config.h"
#include "agent/model_client.h"
#include "agent/prompt.h"
#include "agent/run_store.h"
#include "eval/evaluate.h"

namespace agent {

// Gets a model's response for an attempt: a real client, or replay.
using Ask = std::function<base::Result<Completion>(const ModelConfig& model, const AttemptKey& key,
                                                   const ChatRequest& request)>;

struct Progress {
  int done = 0, total = 0;      // attempts
  int correct = 0;               // correct attempts
  int chains = 0;                // (model, strategy, problem, sample) chains in all
  int fast_1_chains = 0;         // chains whose best correct attempt so far has speedup > 1
  int max_turn = 0;
  int64_t tokens = 0;
  double cost_usd = 0;
};

struct CampaignDeps {
  const Config& config;
  RunStore& store;
  std::vector<eval::Problem> problems;
  eval::Evaluator& evaluator;
  eval::EvalSettings eval_settings;
  const PromptTemplates& templates;
  Target target;
  Ask ask;
  std::function<void(const Progress&)> on_progress;  // called after each attempt, serialised
  // A model gave no response after its retries; that chain stops for this run
  // and is asked again when the run is resumed. Serialised.
  std::function<void(const AttemptKey&, const std::string&)> on_model_error;
  std::atomic<bool>* stop = nullptr;
  int threads = 4;
};

// Runs every chain to its end (or until stop). An Error is a campaign that
// cannot go on (the store cannot be written). A failing candidate is recorded
// in its attempt; a model that fails after its retries ends that chain for
// this run, unrecorded, and the campaign carries on.
base::Status run_campaign(CampaignDeps& deps);

}  // namespace agent
