// The strategy kinds a config may name, and the histories a refine strategy
// may carry, one row each: the row gives the config its name, and
// make_strategy (strategy.h) dispatches on the kind in a switch without a
// default, so that -Wswitch lists every place a new kind must go. Constant
// data, safe from any thread.
#pragma once

#include <span>
#include <string>

#include "base/result.h"

namespace agent {

enum class StrategyKind { single_shot, refine, best_of_k_refine };

// What earlier turns a refine strategy's prompt carries.
enum class History { full, last };

struct StrategyKindRow {
  StrategyKind id;
  const char* name;  // as the config spells it: `kind: NAME`
};

struct HistoryRow {
  History id;
  const char* name;  // `history: NAME`
};

std::span<const StrategyKindRow> strategy_kinds();
std::span<const HistoryRow> histories();
std::string to_string(StrategyKind kind);
std::string to_string(History history);
// The row named `name`, or an error naming every allowed one.
base::Result<StrategyKind> parse_strategy_kind(const std::string& name);
base::Result<History> parse_history(const std::string& name);

}  // namespace agent
