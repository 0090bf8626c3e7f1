#include "agent/campaign/ledger.h"

#include <algorithm>

namespace agent {

std::optional<std::string> Ledger::Spent::reached(const Budget& b) const {
  if (b.attempts && attempts + in_flight >= *b.attempts) return "attempts";
  if (b.tokens && tokens >= *b.tokens) return "tokens";
  if (b.dollars && dollars >= *b.dollars) return "dollars";
  if (b.gpu_seconds && gpu_seconds >= *b.gpu_seconds) return "gpu_seconds";
  return std::nullopt;
}

Ledger::Scopes Ledger::scopes(const std::string& model, const std::string& strategy, const std::string& problem) {
  const std::string arm = model + "/" + strategy;
  return {&spent_[""], &spent_["arm " + arm], &spent_["problem " + arm + "/" + problem]};
}

void Ledger::spend(const Attempt& a, bool claimed) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Scopes in = scopes(a.key.model, a.key.strategy, a.key.problem);
  for (Spent* s : {in.campaign, in.arm, in.problem}) {
    ++s->attempts;
    s->tokens += a.usage.input_tokens + a.usage.output_tokens;
    s->dollars += a.cost_usd;
    s->gpu_seconds += a.worker_s;
    s->in_flight -= claimed;
  }
}

Ledger::Claim Ledger::claim(const std::string& model, const StrategyConfig& strategy, const std::string& problem,
                            int wanted) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Scopes in = scopes(model, strategy.name, problem);
  const struct {
    Spent* spent;
    const Budget& budget;
    const char* name;
  } rows[] = {{in.campaign, campaign_, "campaign "},
              {in.arm, strategy.budget, "arm "},
              {in.problem, strategy.problem_budget, "problem "}};
  Claim c{wanted, ""};
  for (const auto& row : rows) {
    if (auto unit = row.spent->reached(row.budget)) return {0, row.name + *unit};
    if (row.budget.attempts)
      c.granted = static_cast<int>(
          std::min<int64_t>(c.granted, *row.budget.attempts - row.spent->attempts - row.spent->in_flight));
  }
  for (const auto& row : rows) row.spent->in_flight += c.granted;
  return c;
}

void Ledger::unclaim(const std::string& model, const std::string& strategy, const std::string& problem) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Scopes in = scopes(model, strategy, problem);
  for (Spent* s : {in.campaign, in.arm, in.problem}) --s->in_flight;
}

}  // namespace agent
