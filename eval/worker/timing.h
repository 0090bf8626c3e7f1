// The timing protocol (DESIGN.md, Timing): warm up both, then interleave
// reference and candidate trials (alternating which goes first), flushing the
// cache before every call, until min_trials are done and target_seconds are
// spent, or max_trials are done. Each call is timed by Device::time_call; per
// side, if the host clock shows more than the stream's events (work left on
// other streams), the device-wide measurement is used for that side.
// Worker main thread only.
#pragma once

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "eval/job.h"
#include "eval/verdict/outcome.h"
#include "eval/worker/device.h"

namespace eval::worker {

// The median of a series (0 when empty).
double median(std::vector<double> ms);

// Median, mean, spread... of a series of milliseconds.
TimingStats summarize(std::vector<double> ms);

// Picks stream or device-wide times for one side; sets *device_wide when the latter.
std::vector<double> choose_series(const std::vector<CallTime>& calls, bool* device_wide);

// What a timed window of the runner's costs beyond its calls: measured before
// any model code is in the runner, as the judge's clock around batches of a
// no-op call (outputs allocated and copied out, no kernel), of one call and of
// `many` calls, and fit as a line through the two medians. `noise_ms` is how
// far the measured costs strayed (the larger range of the two series); the
// slack at a batch is that noise, at most 5% of the batch's window cost:
// claims whose median is within it of the floors' median stand as claimed.
// The cap grows with the batch: 5% of a one-call window's cost at every batch
// is below a large batch's noise, and raises honest calls.
struct WindowCost {
  double one_ms = 0;       // a window of one call
  double per_call_ms = 0;  // each further call
  double noise_ms = 0;     // the calibration's own noise, uncapped
  double at(int calls) const { return one_ms + per_call_ms * static_cast<double>(calls - 1); }
  double slack_at(int calls) const { return std::min(noise_ms, 0.05 * at(calls)); }
};
WindowCost fit_window_cost(const std::vector<double>& one_call_windows, const std::vector<double>& many_call_windows,
                           int many);

// The judge's bound on the runner's claims. `claimed`: per call; `windows`:
// per batch of `batch` calls, the judge's clock. A call's floor is its
// batch's window less the runner's own cost, shared by the calls. When the
// claims' median is below the floors' by more than the slack, every call is
// raised by what puts the median at the floors' median less the slack;
// within it, the claims stand (a runner may shade its median by up to the
// slack: the bound's resolution).
// A claim more than the window, or one below
// the quietest window's floor beyond a margin (on cpu a wider one), is
// `rejected`, with the message saying which: every window holds a liar's real
// calls, so even the quietest contradicts it, while a descheduling that
// inflates some windows of an honest runner leaves others quiet. The cost
// taken off window t is at least `at_least_ms` (the judge's own cost
// around its reference batches).
struct Bound {
  std::vector<double> per_call;  // claim + raise_ms
  double median_claim = 0, median_floor = 0, median_window = 0;
  double raise_ms = 0;     // per call: what the judge's clock added to every claim
  int floored = 0;         // calls raised (all or none)
  double overhead_ms = 0;  // the window's cost taken off: max(cost.at(batch), at_least_ms)
  double slack_ms = 0;     // cost.slack_at(batch): the claims' median may be this much under the floors'
  // The floors' median is within the slack of zero: per_call is each call's
  // share of its window, an upper bound of its time (Timing::lower_bound).
  bool lower_bound = false;
  std::optional<std::string> rejected;
};
Bound bound_claims(const std::vector<double>& claimed, const std::vector<double>& windows, int batch,
                   const WindowCost& cost, Backend backend, double at_least_ms = 0);

base::Result<Timing> time_interleaved(Device& device, const TimingOptions& options,
                                      const std::function<base::Status()>& reference,
                                      const std::function<base::Status()>& candidate);

}  // namespace eval::worker
