// The campaign scheduler with a fake model and a fake evaluator: which work
// waits for which, stop, and a failing evaluation.
#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <set>

#include "agent/campaign/campaign.h"
#include "base/fs.h"
#include "eval/problems/problem_index.h"
#include "test_support.h"

namespace {
using agent::EvalAs;
using nlohmann::json;

const char* kConfig = R"(name: sched
seed: 1
problems:
  ids: [level1/19]
  size: small
models:
  - name: slow
    provider: replay
    replay_from: none.jsonl
    concurrency: 1
  - name: fast
    provider: replay
    replay_from: none.jsonl
    concurrency: 1
strategies:
  - name: refine
    kind: refine
    turns: 3
    samples: 2
)";

// A campaign over a temporary run folder with scripted answers and outcomes.
struct Harness {
  Harness() {
    auto c = agent::parse_config(kConfig, "sched.yaml");
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    config = *c;
    auto s = agent::RunStore::open(dir.path + "/run", kConfig, false);
    REQUIRE(s.ok());
    store.emplace(std::move(s).value());
    auto t = agent::PromptTemplates::load(test_support::fixture_prompts_dir());
    REQUIRE(t.ok());
    templates.emplace(std::move(t).value());
    auto p = eval::ProblemIndex(test_support::fixture_problems_dir()).find("level1/19");
    REQUIRE(p.ok());
    problem = *p;
  }

  base::Status run(agent::Ask ask, agent::Evaluate evaluate, int eval_threads = 1) {
    agent::CampaignDeps deps{config,
                             *store,
                             {problem},
                             std::move(evaluate),
                             eval::EvalSettings{},
                             *templates,
                             agent::Target{eval::Backend::cpu, eval::LanguageId::cxx, "test cpu", "g++", "1.13"},
                             std::move(ask),
                             on_progress,
                             nullptr,
                             &stop,
                             eval_threads};
    return agent::run_campaign(deps);
  }

  static agent::Completion answer(const std::string& text = "```cpp\n// kernel\n```") {
    agent::Completion c;
    c.response.text = text;
    c.requests = 1;
    return c;
  }

  static eval::Outcome correct(double speedup) {
    eval::Outcome o;
    o.status = eval::Status::correct;
    o.timing = eval::Timing{};
    o.timing->speedup = speedup;
    return o;
  }

  test_support::TempDir dir{"refinery-campaign"};
  agent::Config config;
  std::optional<agent::RunStore> store;
  std::optional<agent::PromptTemplates> templates;
  eval::Problem problem;
  std::function<void(const agent::Progress&)> on_progress;
  std::atomic<bool> stop{false};
};

TEST_SUITE("campaign") {
  TEST_CASE("a slow model does not hold up evaluating another model's responses") {
    Harness h;
    std::mutex m;
    std::condition_variable cv;
    int fast_done = 0;
    bool released_by_fast = false;
    h.on_progress = [&](const agent::Progress&) {};
    auto ask = [&](const agent::ModelConfig& model, const agent::AttemptKey&,
                   const agent::ChatRequest&) -> base::Result<agent::Completion> {
      if (model.name == "slow") {
        // The slow model answers once the fast one has finished all its turns
        // (or, if the scheduler is wrong, after a guard that fails the test).
        std::unique_lock<std::mutex> lock(m);
        if (cv.wait_for(lock, std::chrono::seconds(30), [&] { return fast_done == 6; })) released_by_fast = true;
      }
      return Harness::answer();
    };
    auto evaluate = [&](const eval::Problem&, const std::string&, const EvalAs&) -> base::Result<eval::Outcome> {
      return Harness::correct(1.5);
    };
    h.on_progress = [&](const agent::Progress&) {
      int fast = 0;
      for (const auto& a : h.store->attempts()) fast += a.key.model == "fast";
      std::lock_guard<std::mutex> lock(m);
      fast_done = fast;
      cv.notify_all();
    };
    REQUIRE(h.run(ask, evaluate).ok());
    CHECK(released_by_fast);
    auto attempts = h.store->attempts();
    REQUIRE(attempts.size() == 12);
    for (int i = 0; i < 6; ++i) CHECK(attempts[i].key.model == "fast");
  }

  TEST_CASE("stop: no request is made after it, and the run ends with what finished") {
    Harness h;
    std::atomic<int> asked{0};
    auto ask = [&](const agent::ModelConfig&, const agent::AttemptKey&,
                   const agent::ChatRequest&) -> base::Result<agent::Completion> {
      ++asked;
      return Harness::answer();
    };
    auto evaluate = [&](const eval::Problem&, const std::string&, const EvalAs&) -> base::Result<eval::Outcome> {
      return Harness::correct(1.1);
    };
    int seen = 0;
    h.on_progress = [&](const agent::Progress& p) {
      seen = p.done;
      if (p.done == 2) h.stop = true;
    };
    REQUIRE(h.run(ask, evaluate).ok());
    auto attempts = h.store->attempts();
    CHECK(attempts.size() < 12);
    CHECK(static_cast<int>(attempts.size()) == seen);
    // Responses received before the stop are kept for the resume; none after.
    auto run_dir = h.store->dir();
    auto responses = base::read_file(run_dir + "/responses.jsonl");
    REQUIRE(responses.ok());
    CHECK(std::count(responses->begin(), responses->end(), '\n') == asked.load());
    CHECK(asked.load() <= static_cast<int>(attempts.size()) + 3);  // at most the chains in flight
  }

  TEST_CASE("a crash the run's own interruption caused is not recorded; the same crash without one is") {
    // Slurm preempting a task signals every process of it: the worker dies of
    // SIGTERM as refinery is told to stop. That says nothing of the candidate.
    Harness h;
    auto ask = [&](const agent::ModelConfig&, const agent::AttemptKey&,
                   const agent::ChatRequest&) -> base::Result<agent::Completion> { return Harness::answer(); };
    std::atomic<int> evaluated{0};
    auto sigterm = [](const std::string& message) {
      eval::Outcome o;
      o.status = eval::Status::crashed;
      o.signal = SIGTERM;
      o.message = message;
      return o;
    };
    auto evaluate = [&](const eval::Problem&, const std::string&, const EvalAs&) -> base::Result<eval::Outcome> {
      if (++evaluated == 2) {
        h.stop = true;  // as the handler sets it
        return sigterm("the worker was killed by SIGTERM");
      }
      return Harness::correct(1.2);
    };
    REQUIRE(h.run(ask, evaluate).ok());
    const auto attempts = h.store->attempts();
    CHECK(attempts.size() == 1);
    for (const auto& a : attempts) CHECK(a.status == agent::AttemptStatus::correct);
    auto responses = base::read_file(h.store->dir() + "/responses.jsonl");
    REQUIRE(responses.ok());
    CHECK(std::count(responses->begin(), responses->end(), '\n') >= 2);  // kept, for the resume

    // A candidate that ends itself with SIGTERM, the run going on: its crash.
    Harness h2;
    auto self_kill = [&](const eval::Problem&, const std::string&, const EvalAs&) -> base::Result<eval::Outcome> {
      return sigterm("the runner was killed by SIGTERM");
    };
    h2.config.strategies[0].turns = 1;
    h2.config.strategies[0].samples = 1;
    h2.config.models.resize(1);
    REQUIRE(h2.run(ask, self_kill).ok());
    REQUIRE(h2.store->attempts().size() == 1);
    CHECK(h2.store->attempts()[0].status == agent::AttemptStatus::crashed);
  }

  TEST_CASE("an evaluation that cannot be attempted stops the campaign with its error") {
    Harness h;
    auto ask = [&](const agent::ModelConfig&, const agent::AttemptKey&,
                   const agent::ChatRequest&) -> base::Result<agent::Completion> { return Harness::answer(); };
    std::atomic<int> evaluated{0};
    auto evaluate = [&](const eval::Problem&, const std::string&, const EvalAs&) -> base::Result<eval::Outcome> {
      if (++evaluated == 3) return base::Error{"the worker cannot start: no such file"};
      return Harness::correct(0.9);
    };
    auto s = h.run(ask, evaluate, 2);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().message == "the worker cannot start: no such file");
    CHECK(h.store->attempts().size() < 12);
  }

  TEST_CASE("a correct attempt without timing counts as correct, with no speedup") {
    Harness h;
    h.config.models.resize(1);
    auto ask = [&](const agent::ModelConfig&, const agent::AttemptKey&,
                   const agent::ChatRequest&) -> base::Result<agent::Completion> { return Harness::answer(); };
    auto evaluate = [&](const eval::Problem&, const std::string&, const EvalAs&) -> base::Result<eval::Outcome> {
      eval::Outcome o;
      o.status = eval::Status::correct;
      o.message = eval::kTimingDisabledMessage;
      return o;
    };
    int correct = 0;
    h.on_progress = [&](const agent::Progress& p) { correct = p.correct; };
    REQUIRE(h.run(ask, evaluate).ok());
    auto attempts = h.store->attempts();
    REQUIRE(attempts.size() == 6);
    for (const auto& a : attempts) {
      CHECK(a.status == agent::AttemptStatus::correct);
      CHECK_FALSE(a.speedup.has_value());
    }
    CHECK(correct == 6);
  }

  TEST_CASE("a stored correct attempt without a speedup is resumed, not a crash") {
    Harness h;
    h.config.models.resize(1);
    h.config.strategies[0].samples = 1;
    agent::Attempt untimed;
    untimed.key = {"slow", "refine", "level1/19", 0, 1};
    untimed.status = agent::AttemptStatus::correct;
    REQUIRE(h.store->record_attempt(untimed).ok());
    untimed.key.turn = 2;
    untimed.evaluated = true;  // written with "speedup": null
    REQUIRE(h.store->record_attempt(untimed).ok());
    std::atomic<int> asked{0};
    auto ask = [&](const agent::ModelConfig&, const agent::AttemptKey&,
                   const agent::ChatRequest&) -> base::Result<agent::Completion> {
      ++asked;
      return Harness::answer();
    };
    auto evaluate = [&](const eval::Problem&, const std::string&, const EvalAs&) -> base::Result<eval::Outcome> {
      return Harness::correct(1.5);
    };
    REQUIRE(h.run(ask, evaluate).ok());
    CHECK(asked.load() == 1);  // only turn 3 was left
    auto attempts = h.store->attempts();
    REQUIRE(attempts.size() == 3);
    CHECK(attempts[2].speedup == 1.5);
  }

  TEST_CASE("a response without code is an attempt, and the chain stops early without improvement") {
    Harness h;
    h.config.models.resize(1);
    h.config.strategies[0].stop_after_no_improvement = 1;
    auto ask = [&](const agent::ModelConfig&, const agent::AttemptKey& key,
                   const agent::ChatRequest&) -> base::Result<agent::Completion> {
      return Harness::answer(key.turn == 1 ? "I would rather not." : "```cpp\n// k\n```");
    };
    auto evaluate = [&](const eval::Problem&, const std::string&, const EvalAs&) -> base::Result<eval::Outcome> {
      return Harness::correct(1.2);
    };
    REQUIRE(h.run(ask, evaluate).ok());
    auto attempts = h.store->attempts();
    // Per sample: t1 no_code (no improvement: stop after one such turn).
    REQUIRE(attempts.size() == 2);
    for (const auto& a : attempts) {
      CHECK(a.status == agent::AttemptStatus::no_code);
      CHECK(a.key.turn == 1);
    }
  }

  TEST_CASE("a response cut at the token limit is recorded as truncated, and the model is told") {
    Harness h;
    h.config.models.resize(1);
    h.config.strategies[0].turns = 2;
    h.config.strategies[0].samples = 1;
    int evaluated = 0;
    auto ask = [&](const agent::ModelConfig&, const agent::AttemptKey& key,
                   const agent::ChatRequest&) -> base::Result<agent::Completion> {
      // Turn 1 is cut inside its block; turn 2 after a complete one.
      auto c = Harness::answer(key.turn == 1 ? "```cpp\nat::Tensor forward(at::Tensor x) {\n  return"
                                             : "```cpp\nat::Tensor forward(at::Tensor x) { return x; }\n```\nNow, why");
      c.response.finish_reason = "length";
      return c;
    };
    auto evaluate = [&](const eval::Problem&, const std::string&, const EvalAs&) -> base::Result<eval::Outcome> {
      ++evaluated;
      return Harness::correct(1.1);
    };
    REQUIRE(h.run(ask, evaluate).ok());
    auto attempts = h.store->attempts();
    REQUIRE(attempts.size() == 2);
    auto whole = [&](int turn) {
      auto r = h.store->attempt({h.config.models[0].name, h.config.strategies[0].name, "level1/19", 0, turn});
      REQUIRE(r.has_value());
      return *r;
    };
    const auto cut = whole(1), after = whole(2);
    CHECK(cut.status == agent::AttemptStatus::truncated);
    CHECK(cut.truncated);
    CHECK(cut.message == "the response was cut at the output token limit inside its code block");
    CHECK(cut.feedback.find("cut off at the output token limit inside its code block") != std::string::npos);
    CHECK(after.status == agent::AttemptStatus::correct);
    CHECK(after.truncated);
    CHECK(after.feedback.rfind("(Your answer was cut off at the output token limit after", 0) == 0);
    CHECK(evaluated == 1);  // the cut block was never compiled
  }

  TEST_CASE("a strategy's precision reaches the evaluation and the prompt; an unfit one runs the problem at fp32") {
    for (const bool unfit : {false, true}) {
      Harness h;
      h.config.strategies[0].precision = eval::DType::bfloat16;
      h.config.strategies[0].turns = 1;
      h.config.strategies[0].samples = 1;
      if (unfit) h.problem.unfit_precisions = {{eval::DType::bfloat16, "a test's reason"}};
      std::mutex m;
      std::set<eval::DType> seen;
      auto ask = [&](const agent::ModelConfig&, const agent::AttemptKey&,
                     const agent::ChatRequest&) -> base::Result<agent::Completion> { return Harness::answer(); };
      auto evaluate = [&](const eval::Problem&, const std::string&, const EvalAs& as) -> base::Result<eval::Outcome> {
        std::lock_guard<std::mutex> lock(m);
        seen.insert(as.precision);
        return Harness::correct(1.5);
      };
      REQUIRE(h.run(ask, evaluate).ok());
      // The evaluation is asked at the strategy's precision; the evaluator applies the spec (eval_cpu_test).
      CHECK(seen == std::set<eval::DType>{eval::DType::bfloat16});
      auto dir = h.store->artifact_dir({"fast", "refine", "level1/19", 0, 1, std::nullopt});
      REQUIRE(dir.ok());
      const std::string prompt = *base::read_file(*dir + "/prompt.md");
      CHECK((prompt.find("cast to bfloat16") != std::string::npos) == !unfit);
      CHECK((prompt.find("| bfloat16 |") != std::string::npos) == !unfit);
    }
  }
}

}  // namespace
