#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "eval/worker/judge_setup.h"
#include "eval/worker/timing.h"

// Last: LibTorch brings glog, whose CHECK aborts the process; doctest's must win.
#include <doctest/doctest.h>

namespace {

using eval::worker::CallTime;
using eval::worker::choose_series;
using eval::worker::summarize;
using eval::worker::time_interleaved;

// A Device that runs calls on the host and reports fixed times per caller.
// Every event lands in one log, so tests can check the order of calls,
// flushes and synchronisations.
class FakeDevice : public eval::worker::Device {
 public:
  std::vector<std::string> log;
  std::map<std::string, CallTime> times;  // by the name the call logs
  int flushes = 0, timed_calls = 0, syncs = 0;

  base::Status synchronize() override {
    ++syncs;
    log.push_back("sync");
    return {};
  }
  void flush_cache() override {
    ++flushes;
    log.push_back("flush");
  }
  base::Result<CallTime> time_call(const std::function<base::Status()>& call) override {
    ++timed_calls;
    size_t before = log.size();
    TRY(call());
    if (log.size() != before + 1) return base::Error{"the timed call logged nothing"};
    return times.at(log.back());
  }
  std::string clock_name() const override { return "fake_clock"; }
  nlohmann::json describe() const override { return {{"name", "fake"}}; }

  // A call that logs `name` each time it runs.
  std::function<base::Status()> call(const std::string& name) {
    return [this, name]() -> base::Status {
      log.push_back(name);
      return {};
    };
  }
};

CallTime host_and_stream(double ms) {
  return CallTime{ms, ms, ms};
}

eval::TimingOptions options(int warmup, int min_trials, int max_trials, double target_seconds, bool flush) {
  eval::TimingOptions o;
  o.warmup = warmup;
  o.min_trials = min_trials;
  o.max_trials = max_trials;
  o.target_seconds = target_seconds;
  o.flush_cache = flush;
  return o;
}

// The log without flushes and syncs.
std::vector<std::string> calls_only(const std::vector<std::string>& log) {
  std::vector<std::string> out;
  for (const auto& e : log)
    if (e != "flush" && e != "sync") out.push_back(e);
  return out;
}

}  // namespace

TEST_SUITE("eval::worker::summarize") {
  TEST_CASE("an empty series is all zeros") {
    auto s = summarize({});
    CHECK(s.trials == 0);
    CHECK(s.median_ms == 0);
    CHECK(s.mean_ms == 0);
    CHECK(s.spread() == 0);
  }

  TEST_CASE("one sample is its own median, mean, min and max, with no stdev") {
    auto s = summarize({2.5});
    CHECK(s.trials == 1);
    CHECK(s.median_ms == 2.5);
    CHECK(s.mean_ms == 2.5);
    CHECK(s.min_ms == 2.5);
    CHECK(s.max_ms == 2.5);
    CHECK(s.p10_ms == 2.5);
    CHECK(s.p90_ms == 2.5);
    CHECK(s.stdev_ms == 0);
    CHECK(s.spread() == 0);
  }

  TEST_CASE("sorts the series and interpolates the percentiles linearly") {
    // Sorted: 1 2 3 4 5 6 7 8 9 10 11; positions 1.0, 5.0 and 9.0.
    auto s = summarize({11, 3, 7, 1, 9, 5, 2, 10, 4, 8, 6});
    CHECK(s.trials == 11);
    CHECK(s.median_ms == 6);
    CHECK(s.p10_ms == doctest::Approx(2));
    CHECK(s.p90_ms == doctest::Approx(10));
    CHECK(s.min_ms == 1);
    CHECK(s.max_ms == 11);
    CHECK(s.mean_ms == doctest::Approx(6));
    CHECK(s.stdev_ms == doctest::Approx(std::sqrt(11.0)));  // sum of squares 110 over n-1 = 10
    CHECK(s.spread() == doctest::Approx(8.0 / 6.0));
  }

  TEST_CASE("the median's 95% interval comes from order statistics, and outliers beyond it do not widen it") {
    // n = 11: order statistics 2 and 10 (1-based).
    auto s = summarize({11, 3, 7, 1, 9, 5, 2, 10, 4, 8, 6});
    CHECK(s.median_low_ms == 2);
    CHECK(s.median_high_ms == 10);
    CHECK(s.median_uncertainty() == doctest::Approx(8.0 / 6.0));
    // n = 40: statistics 13 and 28. A fifth of the trials stalled for 100 ms.
    std::vector<double> series;
    for (int i = 0; i < 32; ++i) series.push_back(1.0 + 0.01 * i);
    for (int i = 0; i < 8; ++i) series.push_back(100.0);
    auto noisy = summarize(series);
    CHECK(noisy.median_low_ms == doctest::Approx(1.12));
    CHECK(noisy.median_high_ms == doctest::Approx(1.27));
    CHECK(noisy.median_uncertainty() == doctest::Approx(0.15 / 1.195));
    CHECK(noisy.spread() > 50);  // (p90 - p10) / median sees the stalls
  }

  TEST_CASE("the median of an even count is the mean of the middle two") {
    auto s = summarize({4, 1, 3, 2});
    CHECK(s.median_ms == doctest::Approx(2.5));
    // Positions 0.3 and 2.7 of 1 2 3 4.
    CHECK(s.p10_ms == doctest::Approx(1.3));
    CHECK(s.p90_ms == doctest::Approx(3.7));
    CHECK(s.mean_ms == doctest::Approx(2.5));
    CHECK(s.stdev_ms == doctest::Approx(std::sqrt(5.0 / 3.0)));  // sample, not population
  }

  TEST_CASE("an outlier moves the mean and max but not the median") {
    auto s = summarize({1, 1, 1, 1, 100});
    CHECK(s.median_ms == 1);
    CHECK(s.max_ms == 100);
    CHECK(s.mean_ms == doctest::Approx(20.8));
    CHECK(s.p90_ms == doctest::Approx(60.4));  // position 3.6: 1 + 0.6 * 99
  }
}

TEST_SUITE("eval::worker::choose_series") {
  TEST_CASE("keeps stream times when the host clock agrees") {
    std::vector<CallTime> calls = {{1.00, 1.50, 1.02}, {1.10, 1.60, 1.12}, {0.90, 1.40, 0.93}};
    bool device_wide = true;
    auto series = choose_series(calls, &device_wide);
    CHECK_FALSE(device_wide);
    CHECK(series == std::vector<double>{1.00, 1.10, 0.90});
  }

  TEST_CASE("tolerates launch latency on short calls") {
    // 40 us of host overhead on a 10 us kernel is latency, not hidden work.
    std::vector<CallTime> calls = {{0.01, 0.5, 0.05}, {0.01, 0.5, 0.05}};
    bool device_wide = true;
    auto series = choose_series(calls, &device_wide);
    CHECK_FALSE(device_wide);
    CHECK(series == std::vector<double>{0.01, 0.01});
  }

  TEST_CASE("switches to device-wide times when the host greatly exceeds the stream") {
    // The call left work on another stream: its events show 0.1 ms, the host 5 ms.
    std::vector<CallTime> calls = {{0.1, 4.9, 5.0}, {0.1, 5.1, 5.2}, {0.1, 5.0, 5.1}};
    bool device_wide = false;
    auto series = choose_series(calls, &device_wide);
    CHECK(device_wide);
    CHECK(series == std::vector<double>{4.9, 5.1, 5.0});
  }

  TEST_CASE("judges by the medians, so one slow host reading does not switch") {
    std::vector<CallTime> calls = {{1.0, 9.0, 1.01}, {1.0, 9.0, 50.0}, {1.0, 9.0, 1.02}};
    bool device_wide = true;
    choose_series(calls, &device_wide);
    CHECK_FALSE(device_wide);
  }
}

TEST_SUITE("eval::worker::time_interleaved") {
  TEST_CASE("warms up both sides, then alternates which goes first") {
    FakeDevice device;
    device.times = {{"ref", host_and_stream(2)}, {"cand", host_and_stream(1)}};
    auto t = time_interleaved(device, options(2, 4, 4, 0, false), device.call("ref"), device.call("cand"));
    REQUIRE_MESSAGE(t.ok(), t.error().message);
    CHECK(device.log == std::vector<std::string>{
                            "ref", "cand", "ref", "cand", "sync",  // warm-up
                            "ref", "cand",                         // trial 0
                            "cand", "ref",                         // trial 1
                            "ref", "cand",                         // trial 2
                            "cand", "ref",                         // trial 3
                        });
  }

  TEST_CASE("flushes the cache before every timed call when enabled") {
    FakeDevice device;
    device.times = {{"ref", host_and_stream(2)}, {"cand", host_and_stream(1)}};
    auto t = time_interleaved(device, options(1, 2, 2, 0, true), device.call("ref"), device.call("cand"));
    REQUIRE_MESSAGE(t.ok(), t.error().message);
    CHECK(device.log == std::vector<std::string>{
                            "ref",
                            "cand",
                            "sync",
                            "flush",
                            "ref",
                            "flush",
                            "cand",
                            "flush",
                            "cand",
                            "flush",
                            "ref",
                        });
    CHECK(device.flushes == device.timed_calls);
    CHECK(t->l2_flushed);
  }

  TEST_CASE("does not flush when disabled") {
    FakeDevice device;
    device.times = {{"ref", host_and_stream(2)}, {"cand", host_and_stream(1)}};
    auto t = time_interleaved(device, options(1, 3, 3, 0, false), device.call("ref"), device.call("cand"));
    REQUIRE(t.ok());
    CHECK(device.flushes == 0);
    CHECK(device.timed_calls == 6);
    CHECK_FALSE(t->l2_flushed);
  }

  TEST_CASE("stops at min_trials once the target time is spent") {
    FakeDevice device;
    device.times = {{"ref", host_and_stream(2)}, {"cand", host_and_stream(1)}};
    // Each trial spends 3 ms of host time; a 1 ms target is spent after the first.
    auto t = time_interleaved(device, options(0, 5, 100, 0.001, false), device.call("ref"), device.call("cand"));
    REQUIRE(t.ok());
    CHECK(t->reference.trials == 5);
    CHECK(t->candidate.trials == 5);
  }

  TEST_CASE("keeps going past min_trials until the target time is spent") {
    FakeDevice device;
    device.times = {{"ref", host_and_stream(2)}, {"cand", host_and_stream(1)}};
    // 3 ms a trial: 29.5 ms are spent after 10 trials.
    auto t = time_interleaved(device, options(0, 2, 100, 0.0295, false), device.call("ref"), device.call("cand"));
    REQUIRE(t.ok());
    CHECK(t->reference.trials == 10);
    CHECK(t->candidate.trials == 10);
  }

  TEST_CASE("stops at max_trials even when the target time is not spent") {
    FakeDevice device;
    device.times = {{"ref", host_and_stream(2)}, {"cand", host_and_stream(1)}};
    auto t = time_interleaved(device, options(0, 2, 7, 1000, false), device.call("ref"), device.call("cand"));
    REQUIRE(t.ok());
    CHECK(t->reference.trials == 7);
    CHECK(t->candidate.trials == 7);
    CHECK(device.timed_calls == 14);
  }

  TEST_CASE("runs no warm-up calls when warmup is 0") {
    FakeDevice device;
    device.times = {{"ref", host_and_stream(2)}, {"cand", host_and_stream(1)}};
    auto t = time_interleaved(device, options(0, 1, 1, 0, false), device.call("ref"), device.call("cand"));
    REQUIRE(t.ok());
    CHECK(device.log == std::vector<std::string>{"sync", "ref", "cand"});
  }

  TEST_CASE("speedup is the reference median over the candidate median") {
    FakeDevice device;
    device.times = {{"ref", host_and_stream(3)}, {"cand", host_and_stream(1.5)}};
    auto t = time_interleaved(device, options(1, 4, 4, 0, true), device.call("ref"), device.call("cand"));
    REQUIRE(t.ok());
    CHECK(t->reference.median_ms == 3);
    CHECK(t->candidate.median_ms == 1.5);
    CHECK(t->speedup == doctest::Approx(2.0));
    CHECK(t->reference.host_median_ms == 3);
    CHECK(t->clock == "fake_clock");
    CHECK_FALSE(t->device_wide);
  }

  TEST_CASE("uses device-wide times for a side that leaves work on other streams") {
    FakeDevice device;
    device.times = {{"ref", CallTime{2.0, 2.1, 2.02}}, {"cand", CallTime{0.1, 4.0, 4.05}}};
    auto t = time_interleaved(device, options(0, 3, 3, 0, false), device.call("ref"), device.call("cand"));
    REQUIRE(t.ok());
    CHECK(t->device_wide);
    CHECK(t->reference.median_ms == 2.0);  // stream times: host agrees
    CHECK(t->candidate.median_ms == 4.0);  // device-wide, not the 0.1 ms of its stream
    CHECK(t->candidate.host_median_ms == 4.05);
    CHECK(t->speedup == doctest::Approx(0.5));
  }

  TEST_CASE("a failing call ends timing with its error") {
    FakeDevice device;
    device.times = {{"ref", host_and_stream(2)}, {"cand", host_and_stream(1)}};
    int calls = 0;
    auto failing = [&]() -> base::Status {
      device.log.push_back("cand");
      if (++calls == 3) return base::Error{"illegal memory access"};
      return {};
    };
    auto t = time_interleaved(device, options(1, 5, 5, 0, false), device.call("ref"), failing);
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().message == "illegal memory access");
    CHECK(calls == 3);
  }

  TEST_CASE("a failing warm-up call ends timing before any trial") {
    FakeDevice device;
    device.times = {{"ref", host_and_stream(2)}, {"cand", host_and_stream(1)}};
    auto failing = []() -> base::Status { return base::Error{"launch failed"}; };
    auto t = time_interleaved(device, options(2, 5, 5, 0, true), failing, device.call("cand"));
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().message == "launch failed");
    CHECK(device.timed_calls == 0);
    CHECK(calls_only(device.log).empty());
  }
}

TEST_SUITE("eval::worker::bound_claims") {
  using eval::Backend;
  using eval::worker::bound_claims;
  using eval::worker::fit_window_cost;
  using eval::worker::median;
  using eval::worker::WindowCost;

  TEST_CASE("the window cost is a line through the medians of one call and of many") {
    WindowCost c = fit_window_cost({0.30, 0.10, 0.20}, {1.30, 1.10, 5.0}, 11);
    CHECK(c.one_ms == doctest::Approx(0.20));
    CHECK(c.per_call_ms == doctest::Approx((1.30 - 0.20) / 10));
    CHECK(c.at(1) == doctest::Approx(0.20));
    CHECK(c.at(11) == doctest::Approx(1.30));
    // One place: no second point, no per-call cost; a negative slope is noise, not a discount.
    CHECK(fit_window_cost({0.2}, {}, 1).per_call_ms == 0);
    CHECK(fit_window_cost({0.5}, {0.1}, 4).per_call_ms == 0);
  }

  TEST_CASE("the calibration's own noise is the larger range of its two series; the slack at most 5% of the cost") {
    CHECK(fit_window_cost({3.22, 3.27, 3.25}, {6.40, 6.50}, 2).slack_at(1) == doctest::Approx(0.10));
    // A descheduling during the calibration (9.0 ms) is capped at 5% of the cost (3.25 ms, 6.44 ms for two calls).
    WindowCost c = fit_window_cost({3.22, 3.27, 3.25, 3.24, 9.0}, {6.40, 6.50, 6.45, 6.41, 6.44}, 2);
    CHECK(c.noise_ms == doctest::Approx(9.0 - 3.22));
    CHECK(c.slack_at(1) == doctest::Approx(0.05 * 3.25));
    CHECK(c.slack_at(2) == doctest::Approx(0.05 * 6.44));
    CHECK(fit_window_cost({0.2}, {}, 1).slack_at(1) == 0);
  }

  TEST_CASE("a batch's slack is capped by its own window's cost, not a one-call window's") {
    // Measured on an H100 (2026-12-06, level1/19 at 2^24 elements): a
    // one-call window cost about 0.15 ms beyond its call, a window of 32
    // calls about 2 ms, and the calibration strayed by tens of us. With the
    // cap at 5% of the one-call cost (7.5 us a window), 92% of an honest
    // candidate's calls were raised.
    WindowCost cost = fit_window_cost({0.15, 0.16, 0.14, 0.15, 0.15}, {2.00, 2.04, 1.98, 2.01, 2.03}, 32);
    CHECK(cost.at(32) == doctest::Approx(2.01));
    CHECK(cost.slack_at(32) == doctest::Approx(0.06));
    CHECK(cost.slack_at(1) == doctest::Approx(0.05 * 0.15));
    // Honest claims of 0.053 ms, windows 0.04 ms over the calibrated cost: not raised.
    std::vector<double> claims(64, 0.053);
    const std::vector<double> windows{32 * 0.053 + 2.05, 32 * 0.053 + 2.04};
    auto honest = bound_claims(claims, windows, 32, cost, Backend::cuda);
    CHECK_FALSE(honest.rejected);
    CHECK(honest.floored == 0);
    CHECK(median(honest.per_call) == doctest::Approx(0.053));
    // Shaded by 10% (0.005 ms a call, 0.17 ms a window): beyond the slack,
    // every call is raised to put the median at the floors' less the slack.
    auto shaded = bound_claims(std::vector<double>(64, 0.048), windows, 32, cost, Backend::cuda);
    CHECK(shaded.floored == 64);
    CHECK(median(shaded.per_call) == doctest::Approx(shaded.median_floor - cost.slack_at(32) / 32));
    CHECK(shaded.raise_ms == doctest::Approx(median(shaded.per_call) - 0.048));
    // What the shading bought: at most the slack, per call.
    CHECK(median(shaded.per_call) >= 0.053 - cost.slack_at(32) / 32);
  }

  TEST_CASE(
      "calls the judge's clock cannot resolve are charged their window's share: a lower bound, never a negative "
      "floor") {
    // A candidate faster than the window's own cost: every floor below zero
    // (until 2026-12-06 written as it was, and refused as malformed: crashed).
    WindowCost cost{0.50, 0.0, 0.01};
    auto b = bound_claims({0.001, 0.002, 0.001}, {0.30, 0.32, 0.31}, 1, cost, Backend::cpu);
    CHECK_FALSE(b.rejected);
    CHECK(b.lower_bound);
    CHECK(b.median_floor == 0);
    CHECK(b.per_call == std::vector<double>{0.30, 0.32, 0.31});
    CHECK(b.raise_ms == doctest::Approx(0.31 - 0.001));
    CHECK(b.floored == 3);
    // Floors above zero but within the slack: the claims cannot be checked either.
    WindowCost noisy{0.50, 0.0, 0.05};  // slack 5% of 0.5 ms: 0.025 ms
    auto within = bound_claims({0.001, 0.001, 0.001}, {0.52, 0.53, 0.52}, 1, noisy, Backend::cuda);
    CHECK(within.lower_bound);
    CHECK(median(within.per_call) == doctest::Approx(0.52));
    CHECK(within.median_floor == doctest::Approx(0.02));
    // Past the slack the claims are held to the floors as before.
    auto resolved = bound_claims({0.01, 0.01, 0.01}, {0.56, 0.56, 0.56}, 1, noisy, Backend::cuda);
    CHECK_FALSE(resolved.lower_bound);
    CHECK(median(resolved.per_call) == doctest::Approx(0.06 - 0.025));
  }

  TEST_CASE("an honest call whose window strays within the calibration's noise is not raised") {
    // Measured on the H200 (docs/judge-and-runner.md): claims of 3.27 ms, a
    // calibrated cost of 3.25 ms that strayed by 0.08 ms, windows of 6.55-6.60 ms.
    WindowCost cost{3.25, 0.0, 0.08};
    auto b = bound_claims({3.27, 3.27, 3.27}, {6.55, 6.60, 6.58}, 1, cost, Backend::cuda);
    CHECK_FALSE(b.rejected);
    CHECK(b.floored == 0);
    for (double v : b.per_call) CHECK(v == doctest::Approx(3.27));
    CHECK(b.slack_ms == doctest::Approx(0.08));
    // Without the slack the same windows raise every call, by up to 1%.
    auto strict = bound_claims({3.27, 3.27, 3.27}, {6.55, 6.60, 6.58}, 1, WindowCost{3.25, 0.0}, Backend::cuda);
    CHECK(strict.floored == 3);
    // A claim shaded by more than the slack is charged the floors' median less the slack.
    auto shaded = bound_claims({3.0, 3.0, 3.0}, {6.55, 6.60, 6.58}, 1, cost, Backend::cuda);
    CHECK(shaded.floored == 3);
    CHECK(median(shaded.per_call) == doctest::Approx(6.58 - 3.25 - 0.08));
    // So is a forged claim (and it is rejected: below the quietest floor by more than the margin).
    auto forged = bound_claims({0.001, 0.001, 0.001}, {6.55, 6.60, 6.58}, 1, cost, Backend::cuda);
    CHECK(forged.floored == 3);
    CHECK(median(forged.per_call) == doctest::Approx(6.58 - 3.25 - 0.08));
    CHECK(forged.rejected);
    // The resolution: a call shorter than the slack (0.05 ms of real work
    // under 0.08 ms of slack) was once claimable as nothing; now the claims
    // are not checkable there, and each call is charged its whole window.
    auto hidden = bound_claims({0.001, 0.001, 0.001}, {3.30, 3.31, 3.29}, 1, cost, Backend::cuda);
    CHECK(hidden.lower_bound);
    CHECK(hidden.floored == 3);
    CHECK(median(hidden.per_call) == doctest::Approx(3.30));
  }

  TEST_CASE("the judge's own cost around its reference batches is taken off when it is larger") {
    // The copies of a large output slowed down after the calibration; the
    // judge's own gap around its reference batches shows it.
    WindowCost cost{3.20, 0.0};
    auto b = bound_claims({3.27, 3.27}, {6.60, 6.70}, 1, cost, Backend::cuda, {3.38});
    CHECK(b.floored == 0);
    CHECK(b.per_call[1] == doctest::Approx(3.27));
    auto without = bound_claims({3.27, 3.27}, {6.60, 6.70}, 1, cost, Backend::cuda);
    CHECK(without.floored == 2);
  }

  TEST_CASE("on cuda windows inflated by a loaded host do not reject an honest claim; a liar still is") {
    // Measured on the H200 with 16 busy processes: the median window's floor
    // was 6.69 ms against an honest claim of 3.27 ms. Quiet windows remain.
    WindowCost cost{3.25, 0.0, 0.05};
    const std::vector<double> windows{6.55, 9.95, 9.90, 6.56, 10.1};
    auto honest = bound_claims({3.27, 3.27, 3.27, 3.27, 3.27}, windows, 1, cost, Backend::cuda);
    CHECK_FALSE(honest.rejected);
    auto liar = bound_claims({1.0, 1.0, 1.0, 1.0, 1.0}, windows, 1, cost, Backend::cuda);
    REQUIRE(liar.rejected);
    CHECK(liar.rejected->find("contradicts") != std::string::npos);
  }

  TEST_CASE("an honest claim inside its window is kept as claimed") {
    // Two batches of two calls; each window holds the calls plus the runner's 0.1 ms.
    WindowCost cost{0.1, 0.0};
    auto b = bound_claims({1.0, 1.0, 1.0, 1.0}, {2.1, 2.08}, 2, cost, Backend::cuda);
    CHECK_FALSE(b.rejected);
    CHECK(b.floored == 0);
    REQUIRE(b.per_call.size() == 4);
    for (double v : b.per_call) CHECK(v == doctest::Approx(1.0));
    CHECK(b.median_window == doctest::Approx((2.1 / 2 + 2.08 / 2) / 2));
  }

  TEST_CASE("every call is raised by the same amount: the claims keep their spread") {
    // Claims 1.0-1.4 ms in batches of one, windows 0.2 ms over each claim plus 0.1 ms of cost.
    WindowCost cost{0.1, 0.0};
    const std::vector<double> claims{1.0, 1.1, 1.2, 1.3, 1.4};
    std::vector<double> windows;
    for (double c : claims) windows.push_back(c + 0.2 + 0.1);
    auto b = bound_claims(claims, windows, 1, cost, Backend::cuda);
    CHECK(b.raise_ms == doctest::Approx(0.2));
    for (size_t i = 0; i < claims.size(); ++i) CHECK(b.per_call[i] == doctest::Approx(claims[i] + 0.2));
    // Noise in one window raises nothing: the floors' median is unmoved.
    windows[4] += 5.0;
    CHECK(bound_claims(claims, windows, 1, cost, Backend::cuda).raise_ms == doctest::Approx(0.2));
  }

  TEST_CASE("a claim below the floor is charged the floor, or rejected beyond the margin") {
    WindowCost cost{0.1, 0.0};
    // Floor (2.1 - 0.1) / 2 = 1.0 per call; a claim of 0.9 is within 25%: charged 1.0.
    auto near = bound_claims({0.9, 0.9}, {2.1}, 2, cost, Backend::cuda);
    CHECK_FALSE(near.rejected);
    CHECK(near.floored == 2);
    CHECK(near.per_call[0] == doctest::Approx(1.0));
    // A forged 0.01 ms against a floor of 1.0 ms.
    auto forged = bound_claims({0.01, 0.01}, {2.1}, 2, cost, Backend::cuda);
    REQUIRE(forged.rejected);
    CHECK(forged.rejected->find("contradicts") != std::string::npos);
    // On cpu the margin is wider (0.5 ms or half the floor): 0.6 against 1.0 passes, 0.4 does not.
    CHECK_FALSE(bound_claims({0.6, 0.6}, {2.1}, 2, cost, Backend::cpu).rejected);
    CHECK(bound_claims({0.4, 0.4}, {2.1}, 2, cost, Backend::cpu).rejected);
  }

  TEST_CASE("a claim longer than the judge saw is rejected") {
    auto b = bound_claims({3.0}, {1.0}, 1, WindowCost{0.1, 0.0}, Backend::cuda);
    REQUIRE(b.rejected);
    CHECK(b.rejected->find("more than the judge's clock saw") != std::string::npos);
  }

  TEST_CASE("the per-call cost grows with the batch") {
    // One call costs 0.2 ms of window; each further one 0.05 ms. A batch of 5
    // in a window of 5.4 ms: (5.4 - 0.4) / 5 = 1.0 ms per call.
    WindowCost cost{0.2, 0.05};
    auto b = bound_claims({0.5, 0.5, 0.5, 0.5, 0.5}, {5.4}, 5, cost, Backend::cuda);
    CHECK(b.median_floor == doctest::Approx(1.0));
    CHECK(b.rejected);  // 0.5 claimed, 1.0 seen: beyond 25%
  }
}

TEST_SUITE("eval::worker::bound_claims, the judge's own cost") {
  TEST_CASE("the cost taken off a window is at least the judge's own around the reference") {
    using eval::worker::bound_claims;
    // Calibrated 0.1 ms, but the judge saw 1.1 ms of its own around its batches: floor (2.1 - 1.1) / 2.
    auto b = bound_claims({0.5, 0.5}, {2.1}, 2, eval::worker::WindowCost{0.1, 0.0}, eval::Backend::cuda, {1.1});
    CHECK(b.overhead_ms == doctest::Approx(1.1));
    CHECK(b.median_floor == doctest::Approx(0.5));
    CHECK_FALSE(b.rejected);
    // Below the calibrated cost it changes nothing.
    CHECK(bound_claims({0.5}, {2.0}, 1, eval::worker::WindowCost{0.3, 0.0}, eval::Backend::cuda, {0.1}).overhead_ms ==
          doctest::Approx(0.3));
  }
}

TEST_SUITE("eval::worker::bound_claims, a loaded cpu host") {
  TEST_CASE("wake-up noise in most windows does not contradict an honest claim; a lie is still caught") {
    using eval::Backend;
    using eval::worker::bound_claims;
    const eval::worker::WindowCost cost{0.1, 0.0};
    // Honest 1 ms calls; three of five windows took a descheduling of 30-40 ms.
    const std::vector<double> noisy = {1.1, 30.0, 40.0, 35.0, 1.2};
    auto honest = bound_claims({1.0, 1.0, 1.0, 1.0, 1.0}, noisy, 1, cost, Backend::cpu);
    CHECK_FALSE(honest.rejected);
    CHECK(honest.median_floor == doctest::Approx(29.9));  // the bound still charges what the judge saw
    // A runner that claims 0.01 ms for 5 ms calls is below even the quietest window.
    auto lie = bound_claims({0.01, 0.01, 0.01, 0.01, 0.01}, {5.1, 30.0, 40.0, 35.0, 5.2}, 1, cost, Backend::cpu);
    REQUIRE(lie.rejected);
    CHECK(lie.rejected->find("the judge's clock saw at least 5.0000 ms") != std::string::npos);
    // On a GPU too the quietest window is the reference (it was the median
    // until an honest kernel was rejected on a loaded H200).
    CHECK_FALSE(bound_claims({1.0, 1.0, 1.0, 1.0, 1.0}, noisy, 1, cost, Backend::cuda).rejected);
  }
}

TEST_SUITE("eval::worker::calls_within") {
  // A timed batch's calls each cost the judge copies of a place: level1/19 at
  // full size (12 GiB a place) in a batch of two ran an 80 GB GPU out of memory.
  TEST_CASE("a place bigger than the budget is timed one call at a time; small ones share a batch") {
    using eval::Backend;
    CHECK(eval::worker::calls_within(12ull << 30, Backend::cuda) == 1);
    CHECK(eval::worker::calls_within(1ull << 30, Backend::cuda) == 4);
    CHECK(eval::worker::calls_within(0, Backend::cuda) == static_cast<int>(eval::worker::kMaxCalls));
    CHECK(eval::worker::calls_within(1, Backend::cpu) == static_cast<int>(eval::worker::kMaxCalls));
    CHECK(eval::worker::calls_within(64ull << 20, Backend::cpu) == 4);
    CHECK(eval::worker::calls_within(1ull << 30, Backend::cpu) == 1);
  }
}
