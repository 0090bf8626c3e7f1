// The beam search: its rounds as pure logic, and a beam campaign with a fake
// model and evaluator: every node recorded with its parent, a resumed search
// asks for nothing twice, and the same scripted answers give the same tree.
#include <doctest/doctest.h>

#include <map>
#include <mutex>
#include <set>

#include "agent/campaign/campaign.h"
#include "agent/campaign/strategy.h"
#include "base/fs.h"
#include "eval/problems/problem_index.h"
#include "test_support.h"

namespace {
using agent::Attempt;
using agent::AttemptStatus;

agent::StrategyConfig beam(int width, int branch, int rounds) {
  agent::StrategyConfig s;
  s.name = "beam";
  s.kind = agent::StrategyKind::beam;
  s.width = width;
  s.branch = branch;
  s.turns = rounds;
  return s;
}

Attempt node(int sample, int turn, std::optional<double> speedup) {
  Attempt a;
  a.key = {"m", "beam", "p", sample, turn, std::nullopt};
  a.status = speedup ? AttemptStatus::correct : AttemptStatus::mismatch;
  a.speedup = speedup;
  a.response_text = "answer " + std::to_string(sample);
  a.feedback = "feedback " + std::to_string(sample);
  return a;
}

const char* kConfig = R"(name: beamrun
problems:
  ids: [level1/19]
  size: small
models:
  - name: m
    provider: replay
    replay_from: none.jsonl
    concurrency: 3
strategies:
  - name: beam
    kind: beam
    width: 2
    branch: 2
    turns: 3
)";

// A beam campaign over a temporary run folder: node (sample s) answers "s",
// and its outcome is scripted by sample.
struct BeamRun {
  explicit BeamRun(const std::string& dir, const std::string& text = kConfig) {
    auto c = agent::parse_config(text, "beam.yaml");
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    config = *c;
    auto s = agent::RunStore::open(dir, text, false);
    REQUIRE(s.ok());
    store.emplace(std::move(s).value());
    auto t = agent::PromptTemplates::load(test_support::fixture_prompts_dir());
    REQUIRE(t.ok());
    templates.emplace(std::move(t).value());
    auto p = eval::ProblemIndex(test_support::fixture_problems_dir()).find("level1/19");
    REQUIRE(p.ok());
    problem = *p;
  }

  base::Status run(int stop_after_asks = -1) {
    auto ask = [&](const agent::ModelConfig&, const agent::AttemptKey& key,
                   const agent::ChatRequest& request) -> base::Result<agent::Completion> {
      std::lock_guard<std::mutex> lock(mutex);
      if (stop_after_asks >= 0 && static_cast<int>(asked.size()) >= stop_after_asks) {
        stop = true;
        return base::Error{"stopped", base::ErrorKind::interrupted};
      }
      asked.push_back(key.str());
      prompts[key.str()] = request.messages.size();
      agent::Completion c;
      c.requests = 1;
      c.response.text = "```cpp\n// node " + std::to_string(key.sample) + "\n```";
      c.response.usage.input_tokens = 100;
      c.response.usage.output_tokens = 50;
      return c;
    };
    auto evaluate = [&](const eval::Problem&, const std::string& source,
                        eval::LanguageId) -> base::Result<eval::Outcome> {
      const int sample = std::stoi(source.substr(source.find("node ") + 5));
      eval::Outcome o;
      // Round 1: samples 1 and 2 correct (1.2x and 1.5x); later nodes: the even ones correct, faster by sample.
      const bool correct = sample < 4 ? (sample == 1 || sample == 2) : sample % 2 == 0;
      o.status = correct ? eval::Status::correct : eval::Status::mismatch;
      if (correct) {
        o.timing = eval::Timing{};
        o.timing->speedup = sample == 1 ? 1.2 : sample == 2 ? 1.5 : 1.0 + sample / 10.0;
      }
      return o;
    };
    agent::CampaignDeps deps{config,
                             *store,
                             {problem},
                             evaluate,
                             eval::EvalSettings{},
                             *templates,
                             agent::Target{eval::Backend::cpu, eval::LanguageId::cxx, "test cpu", "g++", "1.13"},
                             ask,
                             nullptr,
                             nullptr,
                             &stop,
                             2,
                             max_in_flight};
    return agent::run_campaign(deps);
  }

  agent::Config config;
  std::optional<agent::RunStore> store;
  std::optional<agent::PromptTemplates> templates;
  eval::Problem problem;
  std::atomic<bool> stop{false};
  int max_in_flight = 0;
  std::mutex mutex;
  std::vector<std::string> asked;
  std::map<std::string, size_t> prompts;  // messages per request
};

}  // namespace

TEST_SUITE("agent::beam") {
  TEST_CASE("round 1 asks width x branch first attempts; later rounds branch from the best correct kernels") {
    auto search = agent::make_search(beam(2, 3, 3));
    REQUIRE(search);
    CHECK_FALSE(agent::make_search(agent::StrategyConfig{}));  // single_shot is no search
    auto first = search->round(1, {});
    REQUIRE(first.size() == 6);
    for (int j = 0; j < 6; ++j) {
      CHECK(first[j].sample == j);
      CHECK(first[j].round == 1);
      CHECK_FALSE(first[j].parent);
      CHECK(first[j].history.empty());
    }
    // Round 1's results: 1 and 4 tie at 1.5x (4 is later: 1 goes first), 5 is 2x, the rest fail.
    std::vector<Attempt> done = {node(0, 1, {}), node(1, 1, 1.5), node(2, 1, {}),
                                 node(3, 1, {}), node(4, 1, 1.5), node(5, 1, 2.0)};
    auto second = search->round(2, done);
    REQUIRE(second.size() == 6);  // width 2 x branch 3
    CHECK(second[0].sample == 6);
    CHECK(second[0].round == 2);
    CHECK(second[0].parent->sample == 5);  // the fastest
    CHECK(second[2].parent->sample == 5);
    CHECK(second[3].parent->sample == 1);  // 1.5x, earlier than 4
    CHECK(second[5].sample == 11);
    REQUIRE(second[3].history.size() == 2);
    CHECK(second[3].history[0].role == "assistant");
    CHECK(second[3].history[0].content == "answer 1");
    CHECK(second[3].history[1].content == "feedback 1");
    CHECK(search->round(4, done).empty());  // past the last round
  }

  TEST_CASE("before any kernel is correct, a round branches from the last round's first attempts") {
    auto search = agent::make_search(beam(2, 1, 3));
    std::vector<Attempt> done = {node(0, 1, {}), node(1, 1, {})};
    auto second = search->round(2, done);
    REQUIRE(second.size() == 2);
    CHECK(second[0].parent->sample == 0);
    CHECK(second[1].parent->sample == 1);
    done.push_back(node(2, 2, {}));
    done.push_back(node(3, 2, {}));
    auto third = search->round(3, done);
    CHECK(third[0].parent->sample == 2);  // the last round's, not the first's
    CHECK(third[0].parent->turn == 2);
    CHECK(third[1].sample == 5);
  }

  TEST_CASE("a beam campaign records every node with its parent, and resumes asking nothing twice") {
    test_support::TempDir dir("refinery-beam");
    const std::string folder = dir.path + "/run";
    std::vector<std::string> first_asks;
    {
      BeamRun run(folder);
      // Stopped inside round 2: round 1 (4 nodes) and one node of round 2 asked.
      CHECK(run.run(5).ok());
      first_asks = run.asked;
      CHECK(first_asks.size() == 5);
    }
    BeamRun resumed(folder);
    REQUIRE(resumed.run().ok());
    std::set<std::string> all(first_asks.begin(), first_asks.end());
    for (const auto& key : resumed.asked) CHECK_MESSAGE(all.insert(key).second, key, " asked twice");
    const auto attempts = resumed.store->attempts();
    CHECK(attempts.size() == 12);  // 3 rounds x width 2 x branch 2
    CHECK(all.size() == 12);
    std::map<std::string, std::optional<agent::AttemptKey::Parent>> parents;
    for (const auto& a : attempts) parents[a.key.str()] = a.key.parent;
    // Round 2 branches from samples 2 (1.5x) and 1 (1.2x); round 3 from the best two found by then.
    CHECK_FALSE(parents.at("m/beam/level1/19/s0/t1"));
    CHECK(parents.at("m/beam/level1/19/s4/t2")->sample == 2);
    CHECK(parents.at("m/beam/level1/19/s6/t2")->sample == 1);
    // Round 2's correct nodes: 4 (1.4x) and 6 (1.6x); with 2 (1.5x), the best two are 6 and 2.
    CHECK(parents.at("m/beam/level1/19/s8/t3")->sample == 6);
    CHECK(parents.at("m/beam/level1/19/s8/t3")->turn == 2);
    CHECK(parents.at("m/beam/level1/19/s10/t3")->sample == 2);
    // A child's prompt carries its parent's answer and feedback: first prompt + 2 messages.
    CHECK(resumed.prompts.at("m/beam/level1/19/s8/t3") == 3);
    // The whole search again, from nothing: the same tree.
    test_support::TempDir again("refinery-beam-again");
    BeamRun fresh(again.path + "/run");
    REQUIRE(fresh.run().ok());
    std::set<std::string> fresh_keys(fresh.asked.begin(), fresh.asked.end());
    CHECK(fresh_keys == all);
    for (const auto& a : fresh.store->attempts()) CHECK(a.key.parent == parents.at(a.key.str()));
  }

  TEST_CASE("a beam config: width and branch only with kind beam, no samples or history") {
    auto ok = agent::parse_config(kConfig, "beam.yaml");
    REQUIRE(ok.ok());
    CHECK(ok->strategies[0].branching());
    CHECK(ok->strategies[0].attempts_per_problem() == 12);
    std::string refine = kConfig;
    refine.replace(refine.find("kind: beam"), 10, "kind: refine");
    auto bad = agent::parse_config(refine, "refine.yaml");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("'width' shapes a beam") != std::string::npos);
    std::string samples = kConfig;
    samples.replace(samples.find("    width: 2"), 12, "    samples: 3");
    auto with_samples = agent::parse_config(samples, "samples.yaml");
    REQUIRE_FALSE(with_samples.ok());
    CHECK(with_samples.error().message.find("a beam has no samples") != std::string::npos);
  }

  TEST_CASE("budgets: a chain stops asking once its problem's, its arm's or the campaign's budget is spent") {
    // refine, 2 samples x 3 turns, chains one at a time; each answer is 150 tokens.
    const std::string refine =
        std::string(kConfig).replace(std::string(kConfig).find("  - name: beam"), std::string::npos,
                                     "  - name: refine\n    kind: refine\n    samples: 2\n"
                                     "    turns: 3\n    problem_budget: {attempts: 2}\n");
    test_support::TempDir dir("refinery-budget");
    {
      BeamRun run(dir.path + "/run", refine);
      run.max_in_flight = 1;
      REQUIRE(run.run().ok());
      CHECK(run.store->attempts().size() == 2);  // s0's turns 1 and 2; then s0's turn 3 and s1 were not asked
    }
    const std::string log = *base::read_file(dir.path + "/run/budget.jsonl");
    CHECK(log.find(R"("budget":"problem attempts")") != std::string::npos);
    CHECK(log.find(R"("next":"m/refine/level1/19/s0/t3")") != std::string::npos);
    CHECK(log.find(R"("next":"m/refine/level1/19/s1/t1")") != std::string::npos);
    // Resumed with the budget as it is: nothing more is asked.
    BeamRun again(dir.path + "/run", refine);
    again.max_in_flight = 1;
    REQUIRE(again.run().ok());
    CHECK_MESSAGE(again.asked.empty(), (again.asked.empty() ? "" : again.asked.front()));
    // A campaign budget in tokens: 300 tokens are two answers.
    std::string tokens = refine;
    tokens.replace(tokens.find("    problem_budget: {attempts: 2}\n"), 34, "");
    tokens.replace(tokens.find("strategies:"), 11, "budget: {tokens: 300}\nstrategies:");
    test_support::TempDir other("refinery-budget-tokens");
    BeamRun by_tokens(other.path + "/run", tokens);
    by_tokens.max_in_flight = 1;
    REQUIRE(by_tokens.run().ok());
    CHECK(by_tokens.store->attempts().size() == 2);
    CHECK(base::read_file(other.path + "/run/budget.jsonl")->find(R"("budget":"campaign tokens")") !=
          std::string::npos);
  }

  TEST_CASE("budget keys: units, ranges and places") {
    std::string bad = kConfig;
    bad.replace(bad.find("    width: 2"), 12, "    budget: {attempts: 1.5}");
    auto fraction = agent::parse_config(bad, "b.yaml");
    REQUIRE_FALSE(fraction.ok());
    CHECK(fraction.error().message.find("'attempts' is a whole number") != std::string::npos);
    std::string unknown = kConfig;
    unknown.replace(unknown.find("    width: 2"), 12, "    budget: {hours: 3}");
    auto unit = agent::parse_config(unknown, "b.yaml");
    REQUIRE_FALSE(unit.ok());
    CHECK(unit.error().message.find("hours") != std::string::npos);
    std::string ok = kConfig;
    ok.replace(ok.find("strategies:"), 11, "budget: {dollars: 2.5, gpu_seconds: 600}\nstrategies:");
    auto parsed = agent::parse_config(ok, "b.yaml");
    REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
    CHECK(*parsed->budget.dollars == 2.5);
    CHECK(*parsed->budget.gpu_seconds == 600);
  }
}
