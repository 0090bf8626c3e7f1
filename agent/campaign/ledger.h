// What a campaign has spent against its budgets (config.h's Budget), in three
// scopes: the campaign, each arm (a model with a strategy), and each arm's
// problem. A request asked and not yet recorded counts against attempts from
// the moment it is claimed, so that chains and search rounds in flight
// together never pass an attempts budget; tokens, dollars and GPU seconds are
// known only once an attempt is recorded, and the requests in flight then may
// pass them by at most their number. Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "agent/campaign/attempt.h"
#include "agent/config.h"

namespace agent {

class Ledger {
 public:
  explicit Ledger(const Budget& campaign) : campaign_(campaign) {}

  // A recorded attempt counts (one of an earlier run's, too); with `claimed`,
  // the request it answered no longer counts in flight.
  void spend(const Attempt& a, bool claimed);

  struct Claim {
    int granted = 0;
    std::string ended_by;  // with none granted, the budget spent: "campaign attempts", "problem tokens", ...
  };
  // Up to `wanted` requests of an arm for a problem: as many as its attempts
  // budgets have room for, or none once any of its budgets is spent.
  Claim claim(const std::string& model, const StrategyConfig& strategy, const std::string& problem, int wanted);
  // A claimed request that ends unrecorded (a model error, a stop).
  void unclaim(const std::string& model, const std::string& strategy, const std::string& problem);

 private:
  struct Spent {
    int64_t attempts = 0, tokens = 0;
    int64_t in_flight = 0;  // claimed, not yet recorded
    double dollars = 0, gpu_seconds = 0;
    // The first unit of `b` this has reached ("tokens"), or none.
    std::optional<std::string> reached(const Budget& b) const;
  };
  struct Scopes {
    Spent *campaign, *arm, *problem;
  };
  Scopes scopes(const std::string& model, const std::string& strategy, const std::string& problem);

  const Budget& campaign_;
  std::mutex mutex_;
  std::map<std::string, Spent> spent_;  // "" (the campaign), "arm M/S", "problem M/S/P"
};

}  // namespace agent
