#include "agent/report/report.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace agent {

std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  if (values.size() % 2) return values[mid];
  const double upper = values[mid];
  return (*std::max_element(values.begin(), values.begin() + mid) + upper) / 2;
}

std::vector<TurnFigures> compute_turns(const std::vector<AttemptSummary>& attempts,
                                       const std::vector<std::string>& problems, int samples, int turns,
                                       const std::vector<double>& thresholds, bool count_unstable) {
  std::set<std::string> selected(problems.begin(), problems.end());
  std::vector<TurnFigures> out;
  const double chains = static_cast<double>(problems.size()) * samples;
  for (int t = 1; t <= turns; ++t) {
    // Each chain's best correct speedup up to turn t: over every correct
    // attempt (for the correct rate and p <= 0), and over those whose timing
    // counts (for p > 0 and the geometric mean).
    std::map<std::pair<std::string, int>, double> best, best_timed;
    std::map<std::pair<std::string, int>, std::optional<double>> best_sol;  // of best_timed's attempts
    for (const auto& a : attempts) {
      if (!a.correct || a.reward_hack || a.turn > t || !selected.count(a.problem) || a.sample >= samples) continue;
      auto key = std::make_pair(a.problem, a.sample);
      auto take = [&](std::map<std::pair<std::string, int>, double>& into) {
        auto it = into.find(key);
        if (it != into.end() && a.speedup <= it->second) return false;
        into[key] = a.speedup;
        return true;
      };
      take(best);
      if ((count_unstable || !a.unstable) && !a.quarantined && !a.library_only && take(best_timed))
        best_sol[key] = a.sol_fraction;
    }
    TurnFigures f;
    f.turn = t;
    f.chains_with_correct = static_cast<int>(best.size());
    f.correct_rate = chains > 0 ? best.size() / chains : 0;
    double log_sum = 0;
    for (const auto& [key, s] : best_timed) log_sum += std::log(s);
    if (!best_timed.empty()) f.geomean_speedup = std::exp(log_sum / static_cast<double>(best_timed.size()));
    std::vector<double> sols;
    for (const auto& [key, sol] : best_sol)
      if (sol) sols.push_back(*sol);
    f.sol_median = median(sols);
    f.sol_chains = static_cast<int>(sols.size());
    for (double p : thresholds) {
      int fast_chains = 0;
      std::set<std::string> fast_problems;
      for (const auto& [key, s] : p > 0 ? best_timed : best) {
        if (s > p) {
          ++fast_chains;
          fast_problems.insert(key.first);
        }
      }
      f.fast_p.push_back(chains > 0 ? fast_chains / chains : 0);
      f.fast_p_at_k.push_back(problems.empty() ? 0 : fast_problems.size() / static_cast<double>(problems.size()));
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace agent
