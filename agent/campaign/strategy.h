// Test-time strategies: given a chain's finished turns, a strategy decides
// what the next request carries (which earlier responses and feedback),
// whether the chain stops, and which earlier turn it builds on. The campaign
// asks it before every turn; the strategy holds no state of its own, so a
// resumed chain gets the same decisions from the turns read back from the
// store. Pure logic; safe from any thread.
//
//   single_shot       one turn: the first prompt alone (K samples are K chains)
//   refine            T turns; each carries every earlier turn (history: full)
//                     or only the last one (history: last)
//   best_of_k_refine  T turns; each carries the best turn so far (the fastest
//                     correct one; before any is correct, the last): a chain
//                     that regresses goes on from its best kernel, not its last
//
// Every strategy ends a chain after stop_after_no_improvement turns without a
// faster correct kernel, when that is set.
//
// A branching strategy (StrategyKindRow::branching) searches a tree of
// attempts per (model, problem) in rounds instead (Search below):
//
//   beam              round 1 asks width x branch first attempts; each later
//                     round keeps the best `width` correct kernels found so far
//                     (by speedup; ties go to the earlier: lower round, then
//                     lower sample) and asks `branch` children of each, every
//                     child's prompt carrying its parent's answer and feedback.
//                     Before any is correct it keeps the last round's first
//                     `width` attempts. `turns` rounds.
//
//   evolve            islands of kernels evolving apart. Generation 1 asks
//                     islands x per_island first attempts; node j of a
//                     generation belongs to island j / per_island. Each later
//                     generation asks per_island children per island, each of
//                     a parent drawn from the island's `archive` best members
//                     by rank (correct ones first, by speedup, ties to the
//                     earlier; then the others, newest first): the member of
//                     rank r (0 the best) is drawn with weight 1 / (r + 1).
//                     A child's prompt carries its parent's answer and
//                     feedback, and the island's `inspirations` best other
//                     members (SearchNode::inspirations). After every
//                     migrate_every-th generation each island's best member
//                     joins the next island (a ring), where it may be drawn
//                     as parent or shown as inspiration. `turns` generations.
//                     The draws come from a generator seeded by the arm's
//                     name, the generation and the node: the same records
//                     give the same draws, on any machine.
//
// A node's key is (sample, turn) = (its index in the search, its round), and it
// names its parent (AttemptKey::parent): the tree can be read back from
// attempts.jsonl. A round is decided by the records of the rounds before it
// alone, so a resumed search asks for the same keys and nothing twice.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/campaign/attempt.h"
#include "agent/config.h"
#include "agent/model/provider.h"

namespace agent {

struct NextTurn {
  bool stop = false;             // the chain ends before this turn
  std::vector<Message> history;  // after the first prompt: assistant and user messages, in order
  int builds_on = 0;             // the turn whose kernel the request continues from (0: none)
};

class Strategy {
 public:
  virtual ~Strategy() = default;
  // The decision for turn done.size() + 1.
  // `done` holds the chain's finished attempts with their texts, in turn order.
  virtual NextTurn next(const std::vector<Attempt>& done) const = 0;
  virtual int turns() const = 0;
};

std::unique_ptr<Strategy> make_strategy(const StrategyConfig& config);

// One request of a branching search's round.
struct SearchNode {
  int sample = 0;                            // its index in the search, unique across rounds
  int round = 1;                             // its turn
  std::optional<AttemptKey::Parent> parent;  // none in round 1
  std::vector<Message> history;              // after the first prompt: the parent's answer and feedback
  // Other attempts the prompt shows beside the parent (evolve), best first;
  // the campaign renders them after the parent's feedback.
  std::vector<Attempt> inspirations;
};

class Search {
 public:
  virtual ~Search() = default;
  // Round `round`'s requests, from `done`: every finished attempt of the
  // earlier rounds, with their texts. Empty: the search is over.
  virtual std::vector<SearchNode> round(int round, const std::vector<Attempt>& done) const = 0;
  virtual int rounds() const = 0;
};

// The search of a branching strategy; nullptr for a linear one.
std::unique_ptr<Search> make_search(const StrategyConfig& config);

}  // namespace agent
