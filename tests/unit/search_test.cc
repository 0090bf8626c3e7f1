// The branching searches (beam, evolve): their rounds as pure logic, and
// campaigns with a fake model and evaluator: every node recorded with its
// parent, a resumed search asks for nothing twice, and the same scripted
// answers give the same tree. Budgets and stop_at_sol end chains and searches.
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

agent::StrategyConfig evolve(int islands, int per_island, int archive, int inspirations, int migrate_every,
                             int generations) {
  agent::StrategyConfig s;
  s.name = "evolve";
  s.kind = agent::StrategyKind::evolve;
  s.evolve = {islands, per_island, archive, inspirations, migrate_every};
  s.turns = generations;
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
      last_message[key.str()] = request.messages.back().content;
      agent::Completion c;
      c.requests = 1;
      c.response.text = "```cpp\n// node " + std::to_string(key.sample) + "\n```";
      c.response.usage.input_tokens = 100;
      c.response.usage.output_tokens = 50;
      return c;
    };
    auto evaluate = [&](const eval::Problem&, const std::string& source,
                        const agent::EvalAs&) -> base::Result<eval::Outcome> {
      const int sample = std::stoi(source.substr(source.find("node ") + 5));
      eval::Outcome o;
      // Round 1: samples 1 and 2 correct (1.2x and 1.5x); later nodes: the even ones correct, faster by sample.
      const bool correct = sample < 4 ? (sample == 1 || sample == 2) : sample % 2 == 0;
      o.status = correct ? eval::Status::correct : eval::Status::mismatch;
      o.phases_ms["worker_wall"] = 1000.0;  // one GPU second each
      if (correct) {
        o.timing = eval::Timing{};
        o.timing->speedup = sample == 1 ? 1.2 : sample == 2 ? 1.5 : 1.0 + sample / 10.0;
        o.sol = eval::SolFigures{1.0, o.timing->speedup / 2, "fp32", "test"};  // 1.5x is 75% of the bound
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
  std::map<std::string, size_t> prompts;            // messages per request
  std::map<std::string, std::string> last_message;  // each request's last message
};

}  // namespace

TEST_SUITE("agent::search") {
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
    // One chain at a time against a budget in one unit: how many attempts it made, and whether
    // budget.jsonl names the budget that ended it.
    auto stopped_by = [](const std::string& config, const std::string& budget) {
      test_support::TempDir folder("refinery-budget-unit");
      BeamRun run(folder.path + "/run", config);
      run.max_in_flight = 1;
      REQUIRE(run.run().ok());
      const auto log = base::read_file(folder.path + "/run/budget.jsonl");
      CHECK_MESSAGE((log && log->find(R"("budget":")" + budget + "\"") != std::string::npos), budget);
      return run.store->attempts().size();
    };
    // A campaign budget in tokens: 300 tokens are two answers.
    std::string tokens = refine;
    tokens.replace(tokens.find("    problem_budget: {attempts: 2}\n"), 34, "");
    tokens.replace(tokens.find("strategies:"), 11, "budget: {tokens: 300}\nstrategies:");
    CHECK(stopped_by(tokens, "campaign tokens") == 2);
    // An arm's budget in dollars ($1 an answer: 100 input tokens at $10,000 a million) and a problem's in
    // GPU seconds (one an evaluation): 2.5 dollars are spent by the third answer, 2 seconds by the second.
    std::string dollars = refine;
    dollars.replace(dollars.find("    problem_budget: {attempts: 2}\n"), 34, "    budget: {dollars: 2.5}\n");
    dollars.replace(dollars.find("    concurrency: 3\n"), 19, "    concurrency: 3\n    price: {input: 10000}\n");
    CHECK(stopped_by(dollars, "arm dollars") == 3);
    std::string seconds = refine;
    seconds.replace(seconds.find("{attempts: 2}"), 13, "{gpu_seconds: 2}");
    CHECK(stopped_by(seconds, "problem gpu_seconds") == 2);
  }

  TEST_CASE("an attempts budget is never passed: a beam's round is cut to what is left, chains in flight count") {
    // Beam rounds of 4 (width 2 x branch 2) against a problem budget of 6: round 2 is cut to 2 nodes.
    std::string cut = kConfig;
    cut.replace(cut.find("    turns: 3\n"), 13, "    turns: 3\n    problem_budget: {attempts: 6}\n");
    test_support::TempDir dir("refinery-budget-round");
    {
      BeamRun run(dir.path + "/run", cut);
      REQUIRE(run.run().ok());
      CHECK(run.store->attempts().size() == 6);
      std::set<std::string> asked(run.asked.begin(), run.asked.end());
      // The round's first nodes, in its order.
      CHECK(asked.count("m/beam/level1/19/s4/t2") == 1);
      CHECK(asked.count("m/beam/level1/19/s5/t2") == 1);
      CHECK(asked.count("m/beam/level1/19/s6/t2") == 0);
    }
    CHECK(base::read_file(dir.path + "/run/budget.jsonl")->find(R"("budget":"problem attempts")") != std::string::npos);
    BeamRun again(dir.path + "/run", cut);
    REQUIRE(again.run().ok());
    CHECK(again.asked.empty());
    // Refine chains side by side (3 in flight) against a campaign budget of 4 attempts: exactly 4.
    const std::string refine =
        std::string(kConfig).replace(std::string(kConfig).find("  - name: beam"), std::string::npos,
                                     "  - name: refine\n    kind: refine\n    samples: 3\n    turns: 3\n");
    std::string campaign = refine;
    campaign.replace(campaign.find("strategies:"), 11, "budget: {attempts: 4}\nstrategies:");
    test_support::TempDir side("refinery-budget-side");
    BeamRun chains(side.path + "/run", campaign);
    REQUIRE(chains.run().ok());
    CHECK(chains.asked.size() == 4);
    CHECK(chains.store->attempts().size() == 4);
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

  TEST_CASE("evolve: generation 1 asks islands x per_island; parents come from the island, inspirations beside them") {
    auto search = agent::make_search(evolve(2, 2, 3, 1, 1, 3));
    REQUIRE(search);
    CHECK(search->rounds() == 3);
    auto first = search->round(1, {});
    REQUIRE(first.size() == 4);
    for (int j = 0; j < 4; ++j) {
      CHECK(first[j].sample == j);
      CHECK_FALSE(first[j].parent);
    }
    // Island 0 holds samples 0 (1.5x) and 1; island 1 holds 2 and 3, none correct. After generation 1
    // (migrate_every 1) island 0's best migrates to island 1; island 1 has none to send.
    std::vector<Attempt> done = {node(0, 1, 1.5), node(1, 1, {}), node(2, 1, {}), node(3, 1, {})};
    auto second = search->round(2, done);
    REQUIRE(second.size() == 4);
    CHECK(second[0].sample == 4);
    CHECK(second[3].sample == 7);
    for (int j = 0; j < 2; ++j) {
      REQUIRE(second[j].parent);
      CHECK(second[j].parent->sample <= 1);  // island 0's own
      CHECK(second[j].parent->turn == 1);
      REQUIRE(second[j].history.size() == 2);
      CHECK(second[j].history[0].content == "answer " + std::to_string(second[j].parent->sample));
      // The inspiration is the island's best other correct member: 0, unless 0 is the parent.
      if (second[j].parent->sample == 0) {
        CHECK(second[j].inspirations.empty());
      } else {
        REQUIRE(second[j].inspirations.size() == 1);
        CHECK(second[j].inspirations[0].key.sample == 0);
      }
    }
    for (int j = 2; j < 4; ++j) {
      REQUIRE(second[j].parent);
      const int p = second[j].parent->sample;
      CHECK_MESSAGE((p == 0 || p == 2 || p == 3), "island 1's parent: ", p);  // its own, or the migrant
    }
    // The same records give the same draws.
    auto again = search->round(2, done);
    for (size_t j = 0; j < again.size(); ++j) CHECK(again[j].parent == second[j].parent);
    // Without migration island 1 never sees sample 0.
    auto apart = agent::make_search(evolve(2, 2, 3, 1, 0, 3));
    for (const auto& n : apart->round(2, done))
      if (n.sample >= 6) CHECK(n.parent->sample >= 2);
    CHECK(search->round(4, done).empty());
  }

  TEST_CASE("evolve: parents are drawn by rank, correct first: the best most often, every archived member sometimes") {
    // One island of 60 children a generation; an archive of 3. Generation 1: samples 0-2 correct
    // (1.1x, 1.9x, 1.5x), the rest not (outside the archive: never drawn).
    auto search = agent::make_search(evolve(1, 60, 3, 2, 0, 2));
    std::vector<Attempt> done;
    for (int j = 0; j < 60; ++j)
      done.push_back(node(j, 1,
                          j == 0   ? std::optional(1.1)
                          : j == 1 ? std::optional(1.9)
                          : j == 2 ? std::optional(1.5)
                                   : std::nullopt));
    std::map<int, int> drawn;
    for (const auto& n : search->round(2, done)) {
      REQUIRE(n.parent);
      ++drawn[n.parent->sample];
      // Two inspirations: the best two correct members other than the parent.
      REQUIRE(n.inspirations.size() == 2);
      CHECK(n.inspirations[0].key.sample != n.parent->sample);
      CHECK(n.inspirations[0].correct_speedup() >= n.inspirations[1].correct_speedup());
    }
    CHECK(drawn.size() == 3);  // 1, 2 and 0: the archive
    CHECK(drawn[1] > drawn[2]);
    CHECK(drawn[2] > 0);
    CHECK(drawn[0] > 0);
    CHECK(drawn[1] + drawn[2] + drawn[0] == 60);
    MESSAGE("draws by rank (1.9x, 1.5x, 1.1x): ", drawn[1], ", ", drawn[2], ", ", drawn[0]);
  }

  TEST_CASE(
      "an evolve campaign: every node with its parent, inspirations in the prompt, resumed asking nothing twice") {
    const std::string config =
        std::string(kConfig).replace(std::string(kConfig).find("  - name: beam"), std::string::npos,
                                     "  - name: evolve\n    kind: evolve\n    islands: 2\n    per_island: 2\n"
                                     "    inspirations: 1\n    migrate_every: 1\n    turns: 3\n");
    test_support::TempDir dir("refinery-evolve");
    std::vector<std::string> first_asks;
    {
      BeamRun run(dir.path + "/run", config);
      CHECK(run.run(6).ok());  // stopped inside generation 2
      first_asks = run.asked;
    }
    BeamRun resumed(dir.path + "/run", config);
    REQUIRE(resumed.run().ok());
    std::set<std::string> all(first_asks.begin(), first_asks.end());
    for (const auto& key : resumed.asked) CHECK_MESSAGE(all.insert(key).second, key, " asked twice");
    const auto attempts = resumed.store->attempts();
    CHECK(attempts.size() == 12);  // 3 generations x 2 islands x 2
    std::map<std::string, std::optional<agent::AttemptKey::Parent>> parents;
    for (const auto& a : attempts) {
      parents[a.key.str()] = a.key.parent;
      CHECK(a.key.parent.has_value() == (a.key.turn > 1));
      if (a.key.parent) CHECK(a.key.parent->turn < a.key.turn);
    }
    test_support::TempDir again("refinery-evolve-again");
    BeamRun fresh(again.path + "/run", config);
    REQUIRE(fresh.run().ok());
    // Island 0 (samples 0, 1): 1 is correct at 1.2x; island 1 (2, 3): 2 at 1.5x; after generation 1
    // each island holds the other's best too, so every child of generation 2 is shown one correct
    // kernel besides its parent, with its code and verdict.
    for (const auto& [key, text] : fresh.last_message) {
      const bool later = key.find("/t1") == std::string::npos;
      CHECK_MESSAGE((text.find("Other kernels from this population") != std::string::npos) == later, key);
      if (later && key.find("/t2") != std::string::npos) {
        CHECK(text.find("### Attempt s") != std::string::npos);
        CHECK(text.find("x the reference's speed") != std::string::npos);
        CHECK(text.find("// node ") != std::string::npos);
      }
    }
    std::set<std::string> fresh_keys(fresh.asked.begin(), fresh.asked.end());
    CHECK(fresh_keys == all);
    for (const auto& a : fresh.store->attempts()) CHECK(a.key.parent == parents.at(a.key.str()));
  }

  TEST_CASE("stop_at_sol: a chain, or a search, stops once its best kernel reaches the fraction of the bound") {
    // A beam of width 2 x branch 2: round 1's sample 2 is correct at 1.5x, 75% of the bound; the other
    // correct kernels stay below 70% until round 3.
    std::string beam_sol = kConfig;
    beam_sol.replace(beam_sol.find("    turns: 3"), 12, "    turns: 3\n    stop_at_sol: 0.7");
    test_support::TempDir dir("refinery-sol");
    {
      BeamRun run(dir.path + "/run", beam_sol);
      REQUIRE(run.run().ok());
      CHECK(run.store->attempts().size() == 4);  // round 1 only: sample 2 reached 75% >= 70%
    }
    const std::string log = *base::read_file(dir.path + "/run/budget.jsonl");
    CHECK(log.find(R"("budget":"stop_at_sol")") != std::string::npos);
    // At 0.9 nothing reaches it: all three rounds.
    std::string high = kConfig;
    high.replace(high.find("    turns: 3"), 12, "    turns: 3\n    stop_at_sol: 0.9");
    test_support::TempDir other("refinery-sol-high");
    BeamRun all(other.path + "/run", high);
    REQUIRE(all.run().ok());
    CHECK(all.store->attempts().size() == 12);
    // A resumed run that stopped at the bound asks nothing more.
    BeamRun resumed(dir.path + "/run", beam_sol);
    REQUIRE(resumed.run().ok());
    CHECK(resumed.asked.empty());
    // A chain: refine, 3 samples x 3 turns; sample 2's kernel (every turn of it) is at 75% of the
    // bound, sample 1's at 60%, sample 0's never correct. Only sample 2's chain stops, after turn 1.
    const std::string refine =
        std::string(kConfig).replace(std::string(kConfig).find("  - name: beam"), std::string::npos,
                                     "  - name: refine\n    kind: refine\n    samples: 3\n    turns: 3\n"
                                     "    stop_at_sol: 0.7\n");
    test_support::TempDir chain("refinery-sol-chain");
    BeamRun chains(chain.path + "/run", refine);
    REQUIRE(chains.run().ok());
    std::set<std::string> keys;
    for (const auto& a : chains.store->attempts()) keys.insert(a.key.str());
    CHECK(keys.size() == 7);
    CHECK(keys.count("m/refine/level1/19/s2/t1") == 1);
    CHECK(keys.count("m/refine/level1/19/s2/t2") == 0);
    CHECK(keys.count("m/refine/level1/19/s1/t3") == 1);
    CHECK(base::read_file(chain.path + "/run/budget.jsonl")->find(R"("next":"m/refine/level1/19/s2/t2")") !=
          std::string::npos);
  }

  TEST_CASE("evolve and stop_at_sol config: keys only with their kind, ranges, no samples") {
    const std::string base = std::string(kConfig).replace(
        std::string(kConfig).find("  - name: beam"), std::string::npos,
        "  - name: evolve\n    kind: evolve\n    islands: 3\n    per_island: 2\n    turns: 4\n");
    auto ok = agent::parse_config(base, "e.yaml");
    REQUIRE_MESSAGE(ok.ok(), (ok.ok() ? "" : ok.error().message));
    CHECK(ok->strategies[0].branching());
    CHECK(ok->strategies[0].attempts_per_problem() == 24);
    CHECK(ok->strategies[0].evolve.archive == 8);  // the documented defaults
    CHECK(ok->strategies[0].evolve.inspirations == 2);
    CHECK(ok->strategies[0].evolve.migrate_every == 3);
    std::string beam_with_islands = kConfig;
    beam_with_islands.replace(beam_with_islands.find("    width: 2"), 12, "    islands: 2");
    auto wrong = agent::parse_config(beam_with_islands, "b.yaml");
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().message.find("'islands' shapes an evolve search") != std::string::npos);
    std::string samples = base;
    samples.replace(samples.find("    islands: 3"), 14, "    samples: 3");
    auto with_samples = agent::parse_config(samples, "e.yaml");
    REQUIRE_FALSE(with_samples.ok());
    CHECK(with_samples.error().message.find("an evolve search has no samples") != std::string::npos);
    std::string many = base;
    many.replace(many.find("    islands: 3"), 14, "    inspirations: 5");
    REQUIRE_FALSE(agent::parse_config(many, "e.yaml").ok());
    std::string sol = base;
    sol.replace(sol.find("    islands: 3"), 14, "    stop_at_sol: 1.5");
    auto past = agent::parse_config(sol, "e.yaml");
    REQUIRE_FALSE(past.ok());
    CHECK(past.error().message.find("stop_at_sol") != std::string::npos);
  }
}
