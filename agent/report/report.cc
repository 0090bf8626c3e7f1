#include "agent/report/report.h"

#include <cmath>
#include <set>

namespace agent {

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
    for (const auto& a : attempts) {
      if (!a.correct || a.turn > t || !selected.count(a.problem) || a.sample >= samples) continue;
      auto key = std::make_pair(a.problem, a.sample);
      auto take = [&](std::map<std::pair<std::string, int>, double>& into) {
        auto it = into.find(key);
        if (it == into.end() || a.speedup > it->second) into[key] = a.speedup;
      };
      take(best);
      if ((count_unstable || !a.unstable) && !a.quarantined && !a.library_only) take(best_timed);
    }
    TurnFigures f;
    f.turn = t;
    f.chains_with_correct = static_cast<int>(best.size());
    f.correct_rate = chains > 0 ? best.size() / chains : 0;
    double log_sum = 0;
    for (const auto& [key, s] : best_timed) log_sum += std::log(s);
    if (!best_timed.empty()) f.geomean_speedup = std::exp(log_sum / static_cast<double>(best_timed.size()));
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
