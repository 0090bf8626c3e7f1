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
// faster correct kernel, when that is set. A search strategy that branches
// (several next requests from one turn) fits the same interface through
// `builds_on`, once the campaign runs trees of attempts.
#pragma once

#include <memory>
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

}  // namespace agent
