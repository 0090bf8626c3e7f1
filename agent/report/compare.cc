#include "agent/report/compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace agent {

namespace {

// Draws indices below n: the same sequence for a seed on every platform
// (std::uniform_int_distribution's is the library's own).
class Draw {
 public:
  explicit Draw(uint64_t seed) : rng_(seed) {}
  size_t below(size_t n) { return static_cast<size_t>(rng_() % n); }

 private:
  std::mt19937_64 rng_;
};

Interval percentile_interval(double value, std::vector<double> stats) {
  Interval out{value, value, value};
  if (stats.empty()) return out;
  std::sort(stats.begin(), stats.end());
  auto at = [&](double q) {
    const double pos = q * static_cast<double>(stats.size() - 1);
    const size_t lo = static_cast<size_t>(std::floor(pos));
    const size_t hi = std::min(lo + 1, stats.size() - 1);
    return stats[lo] + (pos - static_cast<double>(lo)) * (stats[hi] - stats[lo]);
  };
  out.low = at(0.025);
  out.high = at(0.975);
  return out;
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

// One side's figures for one problem at one turn.
struct ProblemValue {
  std::vector<double> fast;     // per threshold: the share of samples above it
  std::optional<double> log_g;  // mean log speedup over chains whose value counts
  int best = -1;                // -1 none correct, 0 correct but nothing counts, 1 a counted speedup
  double best_speedup = 0;      // when best == 1
};

struct SideIndex {
  // problem -> sample -> rows of that chain
  std::map<std::string, std::map<int, std::vector<const AttemptRow*>>> chains;
};

SideIndex index_side(const CompareSide& side) {
  SideIndex idx;
  for (const auto& r : side.rows)
    if (r.sample < side.samples) idx.chains[r.problem][r.sample].push_back(&r);
  return idx;
}

ProblemValue problem_value(const CompareSide& side, const SideIndex& idx, const std::string& problem, int turn,
                           const std::vector<double>& thresholds) {
  const int t = std::min(turn, side.turns);
  ProblemValue v;
  v.fast.assign(thresholds.size(), 0);
  double log_sum = 0;
  int counted = 0;
  auto chains = idx.chains.find(problem);
  for (int s = 0; s < side.samples; ++s) {
    std::optional<double> best_correct, best_counted;
    if (chains != idx.chains.end())
      if (auto rows = chains->second.find(s); rows != chains->second.end())
        for (const AttemptRow* r : rows->second) {
          if (r->turn > t || r->status != "correct" || r->label == "reward_hack") continue;
          const double sp = r->speedup.value_or(0);
          if (!best_correct || sp > *best_correct) best_correct = sp;
          if (r->counts && (!best_counted || sp > *best_counted)) best_counted = sp;
        }
    for (size_t k = 0; k < thresholds.size(); ++k) {
      const double p = thresholds[k];
      const auto& value = p > 0 ? best_counted : best_correct;
      if (value && *value > p) v.fast[k] += 1.0 / side.samples;
    }
    if (best_counted && *best_counted > 0) {
      log_sum += std::log(*best_counted);
      ++counted;
      if (v.best < 1 || *best_counted > v.best_speedup) v.best_speedup = *best_counted;
      v.best = 1;
    } else if (best_correct) {
      v.best = std::max(v.best, 0);
    }
  }
  if (counted) v.log_g = log_sum / counted;
  return v;
}

// exp(mean of a's logs) / exp(mean of b's logs) over the problems `pick` draws; none when a side has none.
std::optional<double> geomean_ratio(const std::vector<ProblemValue>& a, const std::vector<ProblemValue>& b,
                                    const std::vector<size_t>& pick) {
  double sa = 0, sb = 0;
  int na = 0, nb = 0;
  for (size_t i : pick) {
    if (a[i].log_g) sa += *a[i].log_g, ++na;
    if (b[i].log_g) sb += *b[i].log_g, ++nb;
  }
  if (!na || !nb) return std::nullopt;
  return std::exp(sa / na - sb / nb);
}

std::optional<double> geomean(const std::vector<ProblemValue>& side) {
  double s = 0;
  int n = 0;
  for (const auto& v : side)
    if (v.log_g) s += *v.log_g, ++n;
  return n ? std::optional(std::exp(s / n)) : std::nullopt;
}

// Over the paired problems only.
std::optional<double> cost_per_solved(const CompareSide& side, const std::set<std::string>& paired,
                                      const std::vector<ProblemValue>& values, int turn) {
  double cost = 0;
  const int t = std::min(turn, side.turns);
  for (const auto& r : side.rows)
    if (r.turn <= t && paired.count(r.problem)) cost += r.cost_usd;
  int solved = 0;
  for (const auto& v : values) solved += v.best >= 0;
  return solved ? std::optional(cost / solved) : std::nullopt;
}

}  // namespace

Interval bootstrap_mean_difference(const std::vector<double>& a, const std::vector<double>& b, bool paired,
                                   int resamples, uint64_t seed) {
  const double value = mean(a) - mean(b);
  if (a.empty() || b.empty() || resamples <= 0) return {value, value, value};
  Draw draw(seed);
  std::vector<double> stats;
  stats.reserve(resamples);
  for (int r = 0; r < resamples; ++r) {
    double sa = 0, sb = 0;
    if (paired) {
      for (size_t k = 0; k < a.size(); ++k) {
        const size_t i = draw.below(a.size());
        sa += a[i];
        sb += b[i];
      }
    } else {
      for (size_t k = 0; k < a.size(); ++k) sa += a[draw.below(a.size())];
      for (size_t k = 0; k < b.size(); ++k) sb += b[draw.below(b.size())];
    }
    stats.push_back(sa / static_cast<double>(a.size()) - sb / static_cast<double>(b.size()));
  }
  return percentile_interval(value, std::move(stats));
}

Comparison compare_arms(const CompareSide& a, const CompareSide& b, const std::vector<double>& thresholds,
                        int resamples, uint64_t seed) {
  Comparison c;
  c.a = a.label;
  c.b = b.label;
  c.thresholds = thresholds;
  c.resamples = resamples;
  c.seed = seed;
  const std::set<std::string> in_a(a.problems.begin(), a.problems.end()), in_b(b.problems.begin(), b.problems.end());
  std::vector<std::string> paired;
  for (const auto& p : a.problems) (in_b.count(p) ? paired : c.only_a).push_back(p);
  for (const auto& p : b.problems)
    if (!in_a.count(p)) c.only_b.push_back(p);
  c.paired = paired.size();
  const std::set<std::string> paired_set(paired.begin(), paired.end());
  const SideIndex ia = index_side(a), ib = index_side(b);
  for (int t = 1; t <= std::max(a.turns, b.turns); ++t) {
    std::vector<ProblemValue> va, vb;
    for (const auto& p : paired) {
      va.push_back(problem_value(a, ia, p, t, thresholds));
      vb.push_back(problem_value(b, ib, p, t, thresholds));
    }
    CompareTurn ct;
    ct.turn = t;
    for (size_t k = 0; k < thresholds.size(); ++k) {
      std::vector<double> fa, fb;
      for (size_t i = 0; i < paired.size(); ++i) fa.push_back(va[i].fast[k]), fb.push_back(vb[i].fast[k]);
      ct.fast_a.push_back(mean(fa));
      ct.fast_b.push_back(mean(fb));
      // One seed per threshold and turn, so that adding a threshold leaves the others' intervals as they were.
      ct.fast_p_diff.push_back(bootstrap_mean_difference(fa, fb, true, resamples, seed + 1000 * t + k));
    }
    ct.geomean_a = geomean(va);
    ct.geomean_b = geomean(vb);
    std::vector<size_t> all(paired.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    if (auto ratio = geomean_ratio(va, vb, all)) {
      Draw draw(seed + 1000 * t + 999);
      std::vector<double> stats;
      std::vector<size_t> pick(all.size());
      for (int r = 0; r < resamples; ++r) {
        for (auto& i : pick) i = draw.below(all.size());
        if (auto x = geomean_ratio(va, vb, pick)) stats.push_back(*x);
      }
      ct.geomean_ratio = percentile_interval(*ratio, std::move(stats));
    }
    for (size_t i = 0; i < paired.size(); ++i) {
      const ProblemValue &x = va[i], &y = vb[i];
      if (x.best != y.best)
        (x.best > y.best ? ct.won : ct.lost)++;
      else if (x.best < 1 || std::abs(std::log(x.best_speedup / y.best_speedup)) < std::log(1.02))
        ++ct.tied;
      else
        (x.best_speedup > y.best_speedup ? ct.won : ct.lost)++;
    }
    ct.cost_per_solved_a = cost_per_solved(a, paired_set, va, t);
    ct.cost_per_solved_b = cost_per_solved(b, paired_set, vb, t);
    c.turns.push_back(std::move(ct));
  }
  return c;
}

}  // namespace agent
