// The judge's timing phase (judge.h).
#include <algorithm>
#include <cmath>
#include <thread>

#include <ATen/ops/empty_like.h>

#include "eval/worker/compare.h"
#include "eval/worker/inputs.h"
#include "eval/worker/judge.h"

namespace eval::worker {

double futex_wake_latency_ms() {
  std::atomic<uint32_t> word{0};
  std::atomic<int64_t> posted_ns{0};
  std::vector<double> waits;
  std::thread poster([&] {
    for (uint32_t i = 1; i <= 15; ++i) {
      std::this_thread::sleep_for(std::chrono::microseconds(500));
      posted_ns.store(Clock::now().time_since_epoch().count());
      post(word, i);
      while (word.load() == i) std::this_thread::yield();  // the waiter acknowledges with i + 1000
    }
  });
  for (uint32_t i = 1; i <= 15; ++i) {
    wait_equal(word, i, std::chrono::nanoseconds(0), [] { return true; });
    int64_t now = Clock::now().time_since_epoch().count();
    waits.push_back(static_cast<double>(now - posted_ns.load()) / 1e6);
    word.store(i + 1000);
  }
  poster.join();
  return median(waits);
}

std::optional<Outcome> Judge::measure_window_cost() {
  const int places = static_cast<int>(in_views_.size());
  std::vector<double> one, many;
  RunnerAnswer a;
  // At least 5 rounds, up to 15 while they take under 150 ms: a median of
  // five strays by a tenth of a millisecond or more from what an honest
  // candidate's windows cost where a round is short (docs/judge-and-runner.md);
  // at full size, where a round is long, it stays near five.
  const auto started = Clock::now();
  for (int round = 0; round < 15 && (round < 5 || ms_since(started) < 150); ++round) {
    for (int calls : {1, places}) {
      if (calls == places && places == 1) continue;
      std::vector<int> spots;
      for (int k = 0; k < calls; ++k) spots.push_back(k);
      // As a timed batch of the candidate's is measured in time_both.
      if (job_.timing.flush_cache) device_->flush_cache();
      if (auto s = device_->synchronize(); !s) return finish(Status::runtime_error, s.error().message);
      if (auto end = candidate_call(spots, true, "the runner's no-op calls", &a)) return end;
      // The runner holds no model code yet: its clock is trusted here.
      double in_calls = 0;
      for (const auto& c : a.claimed) in_calls += std::isfinite(c.stream_ms) ? c.stream_ms : 0;
      (calls == 1 ? one : many).push_back(a.window_ms - in_calls);
    }
  }
  window_cost_ = fit_window_cost(one, many, places);
  window_cost_one_ = one;
  window_cost_many_ = many;
  return std::nullopt;
}

std::optional<Outcome> Judge::time_both(const std::vector<at::Tensor>& last_inputs, int pass) {
  progress_(pass == 0 ? "timing" : "timing again");
  contradicted_ = false;
  // A second timing draws other inputs and checks other calls: a runner that
  // kept answers from the first must not find them asked again.
  const uint64_t timing_seed = job_.timing_seed + 0x632be59bd9b4e019ull * static_cast<uint64_t>(pass);
  const TimingOptions& opt = job_.timing;
  std::vector<at::Tensor> scratch;
  RunnerAnswer a;
  // Warm-up: both sides on the last correctness inputs, still staged at place (trials - 1) % 2.
  // The candidate's warm-up calls are unchecked, and nothing it does or
  // claims there decides anything.
  const int warm_place = (static_cast<int>(job_.correctness_seeds.size()) + 1) % 2;
  std::vector<double> warm_ref;
  for (int i = 0; i < opt.warmup; ++i) {
    auto t = device_->time_call([&] { return invoke(reference_, last_inputs, scratch); });
    if (!t) return finish(Status::runtime_error, "the reference failed: " + t.error().message);
    warm_ref.push_back(t->stream_ms);
    if (auto end = candidate_call({warm_place}, false, "warm-up", &a)) return end;
  }
  // Held memory is what a full-size problem lacks on an 80 GB GPU (level1/19:
  // 6 GiB a tensor, the runner holding two): what is done with goes now.
  scratch.clear();
  // A trial is a batch: each side makes `batch` calls back to back in one
  // window, each on inputs of its own at a place of its own, so that the
  // judge's fixed cost per window (its wake-up, the GPU's switch between the
  // two processes) is shared by the calls. Sized from the reference's
  // warm-up alone: the candidate's warm-up calls are unchecked, so a batch
  // sized from them would be the candidate's to move (a smaller batch also
  // widens the slack a claim may hide in).
  const int places = static_cast<int>(in_views_.size());
  int batch = 1;
  if (opt.batch_calls > 0) {
    batch = std::min(opt.batch_calls, places);
  } else if (!warm_ref.empty()) {
    const double est = std::max(1e-3, median(warm_ref));
    batch = static_cast<int>(std::clamp(std::ceil(opt.batch_ms / est), 1.0, static_cast<double>(places)));
  }
  // Each call of a batch also costs the judge its fresh inputs, the
  // reference's outputs and their copy: two places of 12 GiB (level1/19 at
  // full size) and a batch of two ran an 80 GB GPU out of memory.
  batch = std::min(batch, calls_within(layout_.bytes / static_cast<uint64_t>(places), job_.backend));
  // Which timed calls are checked is the judge's secret: a generator the
  // runner never sees, seeded through the judge's secret.
  std::mt19937_64 pick(hidden(timing_seed ^ 0x5bd1e995a1b2c3d4ull));
  std::vector<CallTime> ref_calls, claims;        // per call
  std::vector<double> ref_windows, cand_windows;  // per batch
  double spent_ms = 0;
  int checked = 0;
  // Fresh inputs for every timed call, each drawn independently from a seed
  // of its own, at a place that moves on with every call: no two calls share
  // a value, so an answer cached by pointer or by value, or one of an earlier
  // call moved to match (tests/integrity/exploits/shifted_copy.cpp), is wrong
  // on the next.
  // What the checks against cheating cost, apart from the timing itself:
  // drawing fresh inputs for every call, and the checked calls' comparisons.
  double fresh_ms = 0, checks_ms = 0;
  std::vector<std::vector<at::Tensor>> inputs(batch), outs(batch), kept(batch);
  for (int trial = 0; trial < opt.max_trials; ++trial) {
    if (trial >= opt.min_trials && spent_ms >= opt.target_seconds * 1000) break;
    // A candidate far slower than the reference fills its windows with the
    // reference's batch: past five times the budget, three trials (the first
    // two checked whole, on the judge's clock) are all it gets. Fewer trials
    // only widen its interval.
    if (trial >= 3 && spent_ms >= 5 * opt.target_seconds * 1000) break;
    std::vector<int> spots;
    for (int k = 0; k < batch; ++k) {
      const int n = trial * batch + k;
      spots.push_back(n % places);
      const auto f0 = Clock::now();
      inputs[k].clear();  // the last call's, before the next is drawn
      try {
        inputs[k] = draw_inputs(job_.inputs, hidden(timing_seed + 0x9e3779b97f4a7c15ull * (n + 1)), where_);
      } catch (const std::exception& e) {
        return finish(Status::runtime_error, std::string("drawing inputs failed: ") + e.what());
      }
      if (job_.backend == Backend::cuda) (void)device_->synchronize();
      fresh_ms += ms_since(f0);
      if (auto s = stage(inputs[k], spots[k]); !s) return finish(Status::runtime_error, s.error().message);
    }
    auto measure_reference = [&]() -> base::Status {
      if (opt.flush_cache) device_->flush_cache();
      TRY(device_->synchronize());
      auto t0 = Clock::now();
      // What the runner does for a request: a sync, the calls, then every
      // call's outputs copied out, then a sync; so the judge's own window has
      // all the same costs but the calls themselves.
      TRY(device_->synchronize());
      TRY_ASSIGN(std::vector<CallTime> times,
                 device_->time_calls(batch, [&](int k) { return invoke(reference_, inputs[k], outs[k]); }));
      for (int k = 0; k < batch; ++k) {
        if (kept[k].size() != outs[k].size()) kept[k].clear();
        for (size_t o = 0; o < outs[k].size(); ++o) {
          if (kept[k].size() <= o) kept[k].push_back(at::empty_like(outs[k][o]));
          kept[k][o].copy_(outs[k][o]);
        }
      }
      TRY(device_->synchronize());
      ref_windows.push_back(ms_since(t0));
      for (auto& o : outs) o.clear();  // copied to kept; outside the window
      ref_calls.insert(ref_calls.end(), times.begin(), times.end());
      spent_ms += ref_windows.back();
      return {};
    };
    auto measure_candidate = [&]() -> std::optional<Outcome> {
      if (opt.flush_cache) device_->flush_cache();
      if (auto s = device_->synchronize(); !s) return finish(Status::runtime_error, s.error().message);
      if (auto end = candidate_call(spots, true, "timed batch " + std::to_string(trial), &a)) return end;
      claims.insert(claims.end(), a.claimed.begin(), a.claimed.end());
      cand_windows.push_back(a.window_ms);
      spent_ms += a.window_ms;
      return std::nullopt;
    };
    if (trial % 2 == 0) {
      if (auto s = measure_reference(); !s)
        return finish(Status::runtime_error, "the reference failed: " + s.error().message);
      if (auto end = measure_candidate()) return end;
    } else {
      if (auto end = measure_candidate()) return end;
      if (auto s = measure_reference(); !s)
        return finish(Status::runtime_error, "the reference failed: " + s.error().message);
    }
    // Every call of the first two batches, then one call, at random, of every
    // other batch: checking one batch in four lets a runner that answers
    // honestly until the timing starts pass about 1 time in 10 at the minimum
    // of 10 trials. The check is outside both windows.
    std::vector<int> check;
    if (trial < 2) {
      for (int k = 0; k < batch; ++k) check.push_back(k);
    } else {
      check.push_back(static_cast<int>(pick() % static_cast<uint64_t>(batch)));
    }
    const auto c0 = Clock::now();
    for (int k : check) {
      ++checked;
      const int n = trial * batch + k;
      if (auto m = check_unchanged(in_views_[spots[k]], tensors_of(inputs[k]), names_))
        return finish(Status::rejected, *m + " (during timed call " + std::to_string(n) + ")");
      for (size_t o = 0; o < kept[k].size() && o < out_views_[spots[k]].size(); ++o) {
        if (within_tolerance(out_views_[spots[k]][o], kept[k][o], job_.tolerance)) continue;
        TrialDiff d = compare_values(out_views_[spots[k]][o], kept[k][o], job_.tolerance, job_.max_reported_mismatches);
        if (d.mismatches > 0) {
          d.trial = static_cast<int>(job_.correctness_seeds.size()) + n;  // after the correctness trials
          d.output = static_cast<int>(o);
          o_.trials.push_back(d);
          return finish(Status::mismatch, "the output of timed call " + std::to_string(n) +
                                              " differs from the reference's on the same fresh inputs (" +
                                              std::to_string(d.mismatches) + " of " + std::to_string(d.elements) +
                                              " elements): an answer that is not computed from its inputs");
        }
      }
    }
    checks_ms += ms_since(c0);
  }
  // A second and third timing add up under "_again".
  for (auto [key, ms] : {std::pair{"timing_fresh_inputs", fresh_ms}, std::pair{"timing_checks", checks_ms}}) {
    const std::string name = std::string(key) + (pass == 0 ? "" : "_again");
    o_.phases_ms[name] = o_.phases_ms.value(name, 0.0) + ms;
  }

  // The judge's bound: a call took at least its share of what the judge's
  // clock saw around its batch, less the runner's own cost of a window.
  bool ref_wide = false, cand_wide = false;
  std::vector<double> ref_series = choose_series(ref_calls, &ref_wide);
  for (auto& c : claims)
    for (double* v : {&c.stream_ms, &c.device_wide_ms, &c.host_ms})
      if (!std::isfinite(*v) || *v < 0) *v = 0;
  std::vector<double> claimed = choose_series(claims, &cand_wide);
  // The cost taken off a candidate window is at least the judge's own around
  // its reference batches (its sync and its copies of the same outputs), the
  // median over the trials (the first trial's includes allocating the judge's
  // copies: taken trial by trial, it let a forged claim stand in that
  // window on the H200); on cpu plus the judge's wake-up (it sleeps on the
  // reply), since the runner's cost is not calibrated there.
  // Each window's calls added up: the reference's own events, the runner's claims.
  auto per_window = [batch](const std::vector<double>& calls, size_t windows) {
    std::vector<double> sums(windows, 0.0);
    for (size_t i = 0; i < calls.size() && i / batch < windows; ++i) sums[i / batch] += calls[i];
    return sums;
  };
  const std::vector<double> ref_sums = per_window(ref_series, ref_windows.size());
  std::vector<double> gaps;
  for (size_t t = 0; t < ref_windows.size(); ++t) gaps.push_back(std::max(0.0, ref_windows[t] - ref_sums[t]));
  const double judge_cost = median(gaps) + (job_.backend == Backend::cpu ? futex_wake_latency_ms() : 0.0);
  Bound bound = bound_claims(claimed, cand_windows, batch, window_cost_, job_.backend, judge_cost);
  if (bound.rejected) {
    contradicted_ = true;
    return finish(Status::rejected,
                  *bound.rejected + (pass > 0 ? " (in " + std::to_string(pass + 1) + " timings on different inputs)"
                                              : std::string()));
  }
  Timing t;
  t.reference = summarize(ref_series);
  t.candidate = summarize(bound.per_call);
  std::vector<double> ref_host;
  for (const auto& c : ref_calls) ref_host.push_back(c.host_ms);
  t.reference.host_median_ms = median(ref_host);
  t.candidate.host_median_ms = bound.median_window;
  t.device_wide = ref_wide || cand_wide;
  t.speedup = t.candidate.median_ms > 0 ? t.reference.median_ms / t.candidate.median_ms : 0;
  t.clock = device_->clock_name();
  t.l2_flushed = opt.flush_cache;
  t.claimed_median_ms = bound.median_claim;
  t.judge_overhead_ms = bound.overhead_ms / batch;
  t.judge_slack_ms = bound.slack_ms / batch;
  t.floor_median_ms = bound.median_floor;
  t.judge_raise_ms = bound.raise_ms;
  t.lower_bound = bound.lower_bound;
  if (opt.trace) {
    // Per trial, in the order measured: each side's window on the judge's
    // clock and the sum of its calls' times, then what the bound took off a
    // candidate window.
    t.trace = {{"batch_calls", batch},
               {"reference_windows_ms", ref_windows},
               {"reference_calls_ms", ref_sums},
               {"candidate_windows_ms", cand_windows},
               {"candidate_claims_ms", per_window(claimed, cand_windows.size())},
               {"judge_gap_ms", judge_cost},
               {"window_cost_ms", bound.overhead_ms},
               {"slack_ms", bound.slack_ms},
               {"calibration",
                {{"one_call_ms", window_cost_one_},
                 {"many_calls_ms", window_cost_many_},
                 {"many_calls", static_cast<int>(in_views_.size())},
                 {"fit_one_ms", window_cost_.one_ms},
                 {"fit_per_call_ms", window_cost_.per_call_ms},
                 {"noise_ms", window_cost_.noise_ms}}}};
  }
  t.contradicted = pass;
  t.floored_calls = bound.floored;
  t.checked_calls = checked;
  t.batch_calls = batch;
  o_.timing = t;
  return std::nullopt;
}

}  // namespace eval::worker
