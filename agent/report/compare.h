// A paired comparison of two arms (of one run or of two): per turn, the
// difference in fast_p at each threshold and the ratio of geometric-mean
// speedups, each with a bootstrap 95% confidence interval over problems;
// problems won, lost and tied; the cost per solved problem.
//
// Pairing: only the problems both arms were asked (each side's selection,
// left-out problems removed) are compared, and a bootstrap resample draws
// problems, so that both sides of a problem stay together: the spread that
// problems share (one is hard for every model) cancels, and the interval is
// that of the difference, not of two separate means.
//
//   per problem i and side X at turn t (X's turns beyond its last count as
//   its last): f_X(i, p), the share of X's samples whose chain value (as in
//   report.h) has speedup > p; g_X(i), the mean log speedup of the chains
//   whose value counts (none when no chain has one);
//   fast_p difference  mean_i f_A(i, p) - mean_i f_B(i, p)
//   geomean ratio      exp(mean of g_A over the problems that have one)
//                      / exp(mean of g_B over the problems that have one)
//   won / lost / tied  per problem, the best chain of A against B's: a counted
//                      speedup beats a correct one without, which beats none;
//                      two counted speedups within 2% of each other tie (timing noise)
//   cost per solved    the side's cost over turns <= t / the problems with a
//                      correct chain by then (none when none is solved)
//
// The interval is the percentile bootstrap (2.5% and 97.5% of `resamples`
// resamples, 2000 by default) with a fixed seed, so a report is the same each
// time it is made. Pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "agent/report/attempt_rows.h"

namespace agent {

struct Interval {
  double value = 0;
  double low = 0, high = 0;  // the 95% interval
};

// One side: an arm's rows and its denominators.
struct CompareSide {
  std::string label;  // "runs/a:gpt/refine"
  std::vector<std::string> problems;
  int samples = 1, turns = 1;
  std::vector<AttemptRow> rows;
};

struct CompareTurn {
  int turn = 0;
  std::vector<double> fast_a, fast_b;  // per threshold, over the paired problems
  std::vector<Interval> fast_p_diff;   // A - B, per threshold
  std::optional<double> geomean_a, geomean_b;
  std::optional<Interval> geomean_ratio;  // A / B; none when a side has no counted speedup
  int won = 0, lost = 0, tied = 0;        // by A
  std::optional<double> cost_per_solved_a, cost_per_solved_b;
};

struct Comparison {
  std::string a, b;
  std::vector<double> thresholds;
  size_t paired = 0;                        // problems both sides were asked
  std::vector<std::string> only_a, only_b;  // asked of one side only: left out
  int resamples = 0;
  uint64_t seed = 0;
  std::vector<CompareTurn> turns;  // 1..the longer side's turns
};

Comparison compare_arms(const CompareSide& a, const CompareSide& b, const std::vector<double>& thresholds,
                        int resamples = 2000, uint64_t seed = 1);

// The bootstrap of mean(a) - mean(b) over problems: `paired` draws problem i
// for both sides at once (a and b the same length, index i the same problem);
// otherwise each side is drawn on its own. The value is the plain difference.
Interval bootstrap_mean_difference(const std::vector<double>& a, const std::vector<double>& b, bool paired,
                                   int resamples, uint64_t seed);

}  // namespace agent
