// Running a campaign: every chain of a config (model x strategy x problem x
// sample), turn after turn, into a run store.
//
// A chain's turn: build the messages (the first-turn prompt, then the earlier
// responses and feedback that its strategy carries: agent/campaign/strategy.h), get the
// response (from the store if it was already received, else from the model,
// recorded the moment it arrives), extract the code, evaluate it, record the
// attempt and its artifacts, and render the feedback for the next turn. A
// finished attempt found in the store is not run again: its recorded response
// and feedback rebuild the history, so a resumed chain continues where it
// stopped.
//
// Scheduling (DESIGN.md): a chain is a task that moves between pools. Each
// model has a pool of `concurrency` request threads; one evaluation pool
// (`eval_threads`) compiles (the compile service allows one per core) and runs
// workers (the evaluator runs one at a time, so timings never share the
// device). A chain waiting for its model holds no evaluation thread, and a
// response that has arrived is evaluated while other chains wait for theirs,
// so a slow model never idles the GPU. At most `max_in_flight` chains are
// admitted at once, in order: that bounds every queue and the memory held.
// `stop` (Ctrl-C) stops new requests and evaluations; what runs finishes.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "agent/campaign/prompt.h"
#include "agent/campaign/run_store.h"
#include "agent/campaign/shard.h"
#include "agent/campaign/strategy.h"
#include "agent/config.h"
#include "agent/model/model_client.h"
#include "eval/evaluate.h"

namespace agent {

// Gets a model's response for an attempt: a real client, or replay.
using Ask = std::function<base::Result<Completion>(const ModelConfig& model, const AttemptKey& key,
                                                   const ChatRequest& request)>;
// Evaluates a candidate's source for a problem: the Evaluator, or a fake in
// tests and benchmarks. An Error stops the campaign (see eval::Evaluator).
// `as`: what the strategy asks of it (StrategyConfig::candidate_language and
// precision).
struct EvalAs {
  eval::LanguageId language = eval::LanguageId::cxx;
  eval::DType precision = eval::DType::float32;  // eval.precision, or the strategy's own
};
using Evaluate = std::function<base::Result<eval::Outcome>(const eval::Problem& problem, const std::string& source,
                                                           const EvalAs& as)>;

struct Progress {
  int done = 0, total = 0;  // attempts
  int correct = 0;          // correct attempts
  int chains = 0;           // (model, strategy, problem, sample) chains in all
  int fast_1_chains = 0;    // chains whose best correct attempt so far has speedup > 1
  int max_turn = 0;
  int64_t tokens = 0;
  double cost_usd = 0;
};

struct CampaignDeps {
  const Config& config;
  RunStore& store;
  std::vector<eval::Problem> problems;
  Evaluate evaluate;
  eval::EvalSettings eval_settings;  // the size and tolerance the prompt states
  const PromptTemplates& templates;
  Target target;
  Ask ask;
  std::function<void(const Progress&)> on_progress;  // called after each attempt, serialised
  // A model gave no response after its retries; that chain stops for this run
  // and is asked again when the run is resumed. Serialised.
  std::function<void(const AttemptKey&, const std::string&)> on_model_error;
  std::atomic<bool>* stop = nullptr;
  int eval_threads = 2;   // compiles and worker runs in flight
  int max_in_flight = 0;  // chains admitted at once; 0 = the models' concurrency + eval_threads
  ShardSpec shard;        // run only this shard's chains (agent/campaign/shard.h)
};

// Runs every chain to its end (or until stop). An Error is a campaign that
// cannot go on (the store cannot be written). A failing candidate is recorded
// in its attempt; a model that fails after its retries ends that chain for
// this run, unrecorded, and the campaign carries on.
base::Status run_campaign(CampaignDeps& deps);

// The evaluation threads a backend wants with `devices` devices (GPUs, or cpu
// workers). cuda: one per core for compiles, plus one per GPU so that every
// GPU times while every core compiles. cpu: one per worker, because there a
// compile would share the cores with the timing.
int default_eval_threads(eval::Backend backend, int devices = 1);

}  // namespace agent
