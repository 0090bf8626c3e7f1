// fast_p and the other per-turn figures of a campaign, computed from its
// attempt records. Pure arithmetic over records; no I/O.
//
// Definitions (as in the KernelBench paper, extended to chains and turns):
//   - A chain is one (model, strategy, problem, sample); its value at turn t is
//     its best correct attempt with turn <= t (the highest speedup), or none.
//   - fast_p at turn t: the share of (problem, sample) chains whose value has
//     speedup > p, averaged over samples; every selected problem counts in the
//     denominator, so failures and missing attempts count as not fast.
//   - fast_p@k at turn t: the share of problems for which any of the k chains
//     has speedup > p (best of k).
//   - correct rate at turn t: fast_0 with "correct" in place of "speedup > 0".
//   - geomean speedup at turn t: the geometric mean of the chains' values over
//     the chains that have one; none (not 0) when no chain has one.
//   - An unstable attempt (its timing stayed noisy when measured again) is
//     correct, but unless `count_unstable` its speedup counts for nothing:
//     it is left out of fast_p for p > 0 and of the geometric mean. So is a
//     quarantined one until a person accepts it, and a library-only one
//     (eval.library_only: correct, the default).
//   - An attempt a person labelled a reward hack (`refinery audit --label
//     reward_hack`) counts as not correct at all.
//   - sol median at turn t: the median speed-of-light fraction of the chains'
//     values (their best attempt's, among those whose speedup counts), over
//     the chains whose value has one (cuda, a GPU in the peak table).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace agent {

struct AttemptSummary {
  std::string problem;
  int sample = 0;
  int turn = 1;  // 1-based
  bool correct = false;
  double speedup = 0;         // meaningful when correct
  bool unstable = false;      // correct, but its timing is not to be trusted
  bool quarantined = false;   // correct, but its speedup waits for a person (refinery accept)
  bool library_only = false;  // correct, but ran no kernel of its own: its speedup counts for nothing
  bool reward_hack = false;   // a person labelled it so: not correct
  std::optional<double> sol_fraction;
};

struct TurnFigures {
  int turn = 0;
  std::vector<double> fast_p;       // one per threshold
  std::vector<double> fast_p_at_k;  // one per threshold
  double correct_rate = 0;          // chains with a correct attempt so far, over all chains
  // Over chains with a correct attempt whose speedup counts; none when no
  // chain has one (chains_with_correct then says whether any was correct).
  std::optional<double> geomean_speedup;
  int chains_with_correct = 0;
  std::optional<double> sol_median;  // over the chains whose value has a sol fraction
  int sol_chains = 0;
  // What the arm had spent on its attempts of turns 1..t: the x axes of the
  // equal-cost comparison (a beam of width 4 and 10 rounds beside refine for 40 turns).
  int64_t spent_attempts = 0, spent_tokens = 0;
  double spent_dollars = 0, spent_gpu_seconds = 0;
};

// The median of `values` (none when empty).
std::optional<double> median(std::vector<double> values);

// Figures for turns 1..turns of one arm. `problems` is every selected problem
// (the denominator), `samples` the chains per problem.
std::vector<TurnFigures> compute_turns(const std::vector<AttemptSummary>& attempts,
                                       const std::vector<std::string>& problems, int samples, int turns,
                                       const std::vector<double>& thresholds, bool count_unstable = false);

}  // namespace agent
