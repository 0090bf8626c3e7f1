#include <doctest/doctest.h>

#include "agent/campaign/strategy.h"

using agent::Attempt;

namespace {

agent::StrategyConfig config(agent::StrategyKind kind, int turns, agent::History history = agent::History::full,
                             int patience = 0) {
  agent::StrategyConfig c;
  c.name = agent::to_string(kind);
  c.kind = kind;
  c.turns = turns;
  c.history = history;
  c.stop_after_no_improvement = patience;
  return c;
}

Attempt turn(int n, bool correct, double speedup = 0) {
  Attempt a;
  a.key = {"model", "strategy", "level1/1", 0, n};
  a.status = correct ? agent::AttemptStatus::correct : agent::AttemptStatus::mismatch;
  if (correct) a.speedup = speedup;
  a.response_text = "answer " + std::to_string(n);
  a.feedback = "feedback " + std::to_string(n);
  return a;
}

// The assistant messages a request carries, as "answer N" strings.
std::vector<std::string> answers(const agent::NextTurn& n) {
  std::vector<std::string> out;
  for (const auto& m : n.history)
    if (m.role == "assistant") out.push_back(m.content);
  return out;
}

}  // namespace

TEST_SUITE("agent::Strategy") {
  TEST_CASE("single_shot asks once, with the first prompt alone") {
    auto s = agent::make_strategy(config(agent::StrategyKind::single_shot, 1));
    auto first = s->next({});
    CHECK_FALSE(first.stop);
    CHECK(first.history.empty());
    CHECK(first.builds_on == 0);
    CHECK(s->next({turn(1, true, 2.0)}).stop);
  }

  TEST_CASE("refine carries every earlier turn, answer then feedback, or only the last") {
    std::vector<Attempt> done = {turn(1, false), turn(2, true, 1.5)};
    auto full = agent::make_strategy(config(agent::StrategyKind::refine, 4))->next(done);
    REQUIRE(full.history.size() == 4);
    CHECK(full.history[0].role == "assistant");
    CHECK(full.history[0].content == "answer 1");
    CHECK(full.history[1].role == "user");
    CHECK(full.history[1].content == "feedback 1");
    CHECK(answers(full) == std::vector<std::string>{"answer 1", "answer 2"});
    CHECK(full.builds_on == 2);
    auto last = agent::make_strategy(config(agent::StrategyKind::refine, 4, agent::History::last))->next(done);
    CHECK(answers(last) == std::vector<std::string>{"answer 2"});
    CHECK(agent::make_strategy(config(agent::StrategyKind::refine, 2))->next(done).stop);  // all turns done
  }

  TEST_CASE("after a regression, refine goes on from the last kernel and best_of_k_refine from the best") {
    std::vector<Attempt> done = {turn(1, true, 2.0), turn(2, false), turn(3, true, 1.2)};
    auto refine = agent::make_strategy(config(agent::StrategyKind::refine, 5, agent::History::last))->next(done);
    auto best = agent::make_strategy(config(agent::StrategyKind::best_of_k_refine, 5))->next(done);
    CHECK(answers(refine) == std::vector<std::string>{"answer 3"});
    CHECK(refine.builds_on == 3);
    CHECK(answers(best) == std::vector<std::string>{"answer 1"});
    CHECK(best.history[1].content == "feedback 1");
    CHECK(best.builds_on == 1);
    // Before anything is correct, best_of_k_refine goes on from the last turn.
    auto none =
        agent::make_strategy(config(agent::StrategyKind::best_of_k_refine, 5))->next({turn(1, false), turn(2, false)});
    CHECK(answers(none) == std::vector<std::string>{"answer 2"});
  }

  TEST_CASE("every kind named in the table is a strategy of that kind; unknown names are errors naming them all") {
    for (const auto& row : agent::strategy_kinds()) {
      REQUIRE(agent::parse_strategy_kind(row.name).ok());
      CHECK(*agent::parse_strategy_kind(row.name) == row.id);
      CHECK(agent::to_string(row.id) == row.name);
      // Every linear kind makes a strategy with the configured turns; every branching one a search with them as rounds.
      if (row.branching) {
        CHECK_FALSE(agent::make_strategy(config(row.id, 1)));
        CHECK(agent::make_search(config(row.id, 1))->rounds() == 1);
      } else {
        CHECK(agent::make_strategy(config(row.id, 1))->turns() == 1);
        CHECK_FALSE(agent::make_search(config(row.id, 1)));
      }
    }
    auto bad = agent::parse_strategy_kind("mcts");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message ==
          "unknown strategy kind 'mcts' (expected one of: single_shot, refine, best_of_k_refine, beam, evolve)");
    auto history = agent::parse_history("first");
    REQUIRE_FALSE(history.ok());
    CHECK(history.error().message == "unknown history 'first' (expected one of: full, last)");
  }

  TEST_CASE("stop_after_no_improvement ends a chain after that many turns without a faster correct kernel") {
    auto s = agent::make_strategy(config(agent::StrategyKind::refine, 10, agent::History::full, 2));
    CHECK_FALSE(s->next({turn(1, true, 1.0), turn(2, true, 0.9)}).stop);
    CHECK(s->next({turn(1, true, 1.0), turn(2, true, 0.9), turn(3, false)}).stop);
    CHECK_FALSE(s->next({turn(1, true, 1.0), turn(2, false), turn(3, true, 1.1)}).stop);
    // No correct kernel at all counts as no improvement.
    CHECK(s->next({turn(1, false), turn(2, false)}).stop);
    // The same rule for every kind.
    CHECK(agent::make_strategy(config(agent::StrategyKind::best_of_k_refine, 10, agent::History::full, 1))
              ->next({turn(1, true, 1.0), turn(2, true, 1.0)})
              .stop);
  }
}
