// The text tree of a problem's attempts (refinery report --tree): a search's
// nodes under their parents, a chain's turns one under another.
#include <doctest/doctest.h>

#include "agent/report/search_tree.h"

namespace {
agent::Attempt at(const std::string& strategy, int sample, int turn, std::optional<std::pair<int, int>> parent,
                  std::optional<double> speedup) {
  agent::Attempt a;
  a.key = {"m", strategy, "level1/19", sample, turn, std::nullopt};
  if (parent) a.key.parent = agent::AttemptKey::Parent{parent->first, parent->second};
  a.status = speedup ? agent::AttemptStatus::correct : agent::AttemptStatus::mismatch;
  a.speedup = speedup;
  return a;
}
}  // namespace

TEST_CASE("a search's tree: children under their parents, in round then sample order; a chain as one line") {
  std::vector<agent::Attempt> attempts = {at("evolve", 0, 1, {}, 1.5),
                                          at("evolve", 1, 1, {}, {}),
                                          at("evolve", 3, 2, std::pair{0, 1}, 2.0),
                                          at("evolve", 2, 2, std::pair{0, 1}, {}),
                                          at("evolve", 4, 3, std::pair{3, 2}, 2.5),
                                          at("refine", 0, 1, {}, {}),
                                          at("refine", 0, 2, {}, 1.1),
                                          at("evolve", 9, 1, {}, {})};
  attempts.back().key.problem = "level1/20";  // another problem's: not in the tree
  const std::string tree = agent::render_search_tree(attempts, "level1/19");
  const std::string expected =
      "m/evolve at level1/19: 5 attempts\n"
      "├─ s0/t1  correct 1.5x\n"
      "│  ├─ s2/t2  mismatch\n"
      "│  └─ s3/t2  correct 2x\n"
      "│     └─ s4/t3  correct 2.5x\n"
      "└─ s1/t1  mismatch\n"
      "\n"
      "m/refine at level1/19: 2 attempts\n"
      "└─ s0/t1  mismatch\n"
      "   └─ s0/t2  correct 1.1x\n";
  CHECK(tree == expected);
  CHECK(agent::render_search_tree(attempts, "level9/1").empty());
}
