#include "eval/worker/run_job.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>
#include <torch/torch.h>

#include "base/fs.h"
#include "base/text.h"
#include "eval/shim.h"
#include "eval/worker/arena.h"
#include "eval/worker/compare.h"
#include "eval/worker/device.h"
#include "eval/worker/entry.h"
#include "profiler/cupti.h"
#include "eval/worker/inputs.h"
#include "eval/worker/judge_setup.h"
#include "eval/worker/runner.h"
#include "eval/worker/runner_link.h"
#include "eval/worker/timing.h"


namespace eval::worker {
namespace {

using Clock = std::chrono::steady_clock;

class Progress {
 public:
  explicit Progress(const std::string& path)
      : fd_(open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600)) {}
  ~Progress() {
    if (fd_ >= 0) close(fd_);
  }
  void operator()(const std::string& phase) {
    if (fd_ < 0) return;
    std::string line = phase + "\n";
    (void)!write(fd_, line.data(), line.size());
  }

 private:
  int fd_;
};

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

base::Result<Entry> load_reference(const WorkerJob& job) {
  TRY_ASSIGN(int fd, sealed_library(job.reference_library, job.reference_digest, "reference"));
  void* handle = dlopen(("/proc/self/fd/" + std::to_string(fd)).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return base::Error{std::string("reference library failed to load: ") + dlerror()};
  void* symbol = dlsym(handle, kEntrySymbol);
  if (!symbol) return base::Error{std::string("reference library has no entry point ") + kEntrySymbol};
  return reinterpret_cast<Entry>(symbol);
}

base::Status call(Entry entry, Device& device, const std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
  TRY(invoke(entry, in, out));
  return device.synchronize();
}

std::string self_path() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

// How long this process takes to wake from a futex another thread posts:
// the median of a few rounds, measured by the judge on itself.
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

// The judge's evaluation: state shared by its phases.
class Judge {
 public:
  Judge(const WorkerJob& job, Outcome& o, Progress& progress, std::string root_dir)
      : job_(job), o_(o), progress_(progress), root_dir_(std::move(root_dir)) {}

  Outcome run();

 private:
  Outcome finish(Status status, std::string message) {
    o_.status = status;
    o_.message = std::move(message);
    return o_;
  }
  std::vector<at::Tensor> tensors_of(const std::vector<at::Tensor>& all) const {
    std::vector<at::Tensor> out;
    for (size_t i = 0; i < all.size(); ++i)
      if (!job_.inputs[i].is_scalar) out.push_back(all[i]);
    return out;
  }
  // Starts the runner first thing, so that its start overlaps the judge's own;
  // an outcome when it cannot.
  std::optional<Outcome> launch_runner();
  // Once the reference has shaped the outputs: waits for the runner, checks
  // its sandbox, hands it the arena and has it load the candidate.
  std::optional<Outcome> connect_runner(const std::vector<at::Tensor>& inputs, const std::vector<at::Tensor>& outputs);
  // Copies the inputs into region `r` and poisons the output slots.
  base::Status stage(const std::vector<at::Tensor>& inputs, int r);
  // One candidate call in the runner; an outcome when the call ends the evaluation.
  // Calls at the places named, back to back, in one request.
  std::optional<Outcome> candidate_call(const std::vector<int>& places, bool timed, const std::string& where,
                                        RunnerAnswer* answer);
  // Before the candidate loads: the judge's clock around timed batches of
  // the runner's no-op call, of one call and of every place, so that a
  // window's cost beyond its calls is known from a runner that holds no model code.
  std::optional<Outcome> measure_window_cost();
  // Warm-up, then interleaved timed batches of both sides. `pass` 1 is a
  // second timing after the bound contradicted the first (on other inputs,
  // other checked calls). Sets contradicted_ when the bound rejected.
  std::optional<Outcome> time_both(const std::vector<at::Tensor>& last_inputs, int pass);
  std::vector<at::Tensor> fresh(const std::vector<at::Tensor>& base, std::mt19937_64& pick, uint64_t seed) const;
  void profile(const std::vector<at::Tensor>& inputs, int region);
  // A profile-only job under Nsight Compute: a warm-up call of the reference,
  // then the window ncu profiles. The verdict was given by the evaluation before this one.
  Outcome profile_for_ncu();

  const WorkerJob& job_;
  Outcome& o_;
  Progress& progress_;
  std::string root_dir_;
  std::unique_ptr<Device> device_;
  at::Device where_ = at::Device(at::kCPU);
  Entry reference_ = nullptr;
  int candidate_fd_ = -1;
  std::vector<std::string> names_;  // tensor inputs'
  Layout layout_;
  std::unique_ptr<Arena> arena_;
  std::unique_ptr<RunnerLink> runner_;
  bool connected_ = false;
  std::vector<std::vector<at::Tensor>> in_views_, out_views_;  // [place][tensor]
  WindowCost window_cost_;  // the runner's own, measured before the candidate is in it
  bool contradicted_ = false;  // the last timing's bound rejected the claims
};

std::optional<Outcome> Judge::launch_runner() {
  RunnerStart s;
  s.program = self_path();
  s.root_dir = root_dir_;
  s.candidate_fd = candidate_fd_;
  s.job = runner_job(job_).dump();
  s.env = runner_environment();
  s.scratch_bytes = job_.scratch_bytes;
  s.limits = {{RLIMIT_CORE, 0}, {RLIMIT_NPROC, 512}, {RLIMIT_NICE, 0}, {RLIMIT_RTPRIO, 0},
              {RLIMIT_FSIZE, 64ull << 20}, {RLIMIT_NOFILE, 4096}};
  auto link = RunnerLink::start(s);
  if (!link) return finish(Status::runtime_error, "the sandboxed runner did not start: " + link.error().message);
  runner_ = std::move(link).value();
  return std::nullopt;
}

std::optional<Outcome> Judge::connect_runner(const std::vector<at::Tensor>& inputs,
                                             const std::vector<at::Tensor>& outputs) {
  progress_("runner");
  if (auto s = runner_->ready(); !s) return finish(Status::runtime_error, s.error().message);
  std::vector<std::string> missing;
  o_.sandbox = describe_layers(runner_->layers(), runner_->filtered(), runner_->filter_note(), &missing);
  o_.trusted = missing.empty();
  o_.network_isolated = runner_->layers().network_namespace;
  if (!o_.trusted && !job_.allow_untrusted) {
    o_.sandbox["refused"] = true;
    return finish(Status::runtime_error, "the sandbox is incomplete here (" + base::join(missing, "; ") +
                                             "), and untrusted results are not allowed");
  }
  // Room for a timed batch of calls, each on inputs of its own, within the arena's budget.
  const uint64_t budget = job_.backend == Backend::cuda ? (4ull << 30) : (256ull << 20);
  const int places = job_.timing.enabled ? places_within(tensors_of(inputs), outputs, budget) : 2;
  layout_ = plan_layout(tensors_of(inputs), outputs, places);
  auto arena = Arena::create(job_.backend, job_.device, layout_.bytes);
  if (!arena) return finish(Status::runtime_error, "the arena: " + arena.error().message);
  arena_ = std::move(arena).value();
  for (int r = 0; r < places; ++r) {
    in_views_.push_back(views(*arena_, layout_.inputs[r]));
    out_views_.push_back(views(*arena_, layout_.outputs[r]));
  }
  if (auto s = runner_->attach(*arena_); !s) return finish(Status::runtime_error, s.error().message);
  runner_->stop();
  // On cpu the stand-in's host allocations change what later ones cost (an
  // honest reference then failed its own bound): there, as before, the
  // judge's own cost around its reference batches is the window's cost.
  if (job_.timing.enabled && job_.backend == Backend::cuda)
    if (auto end = measure_window_cost()) return end;
  runner_->resume();
  progress_("load candidate");
  auto loaded = runner_->ask(Command::load, {}, {}, false);
  if (!loaded) return finish(Status::crashed, runner_->death() + " while loading the candidate");
  if (loaded->result != Reply::ok) return finish(Status::load_error, loaded->text);
  runner_->stop();
  connected_ = true;
  return std::nullopt;
}

base::Status Judge::stage(const std::vector<at::Tensor>& inputs, int r) {
  try {
    auto tensors = tensors_of(inputs);
    for (size_t i = 0; i < tensors.size(); ++i) in_views_[r][i].copy_(tensors[i]);
    // Whatever the slots held before (an earlier answer) must not pass for this one.
    for (auto& v : out_views_[r]) {
      if (v.is_floating_point()) v.fill_(std::numeric_limits<double>::quiet_NaN());
      else if (v.scalar_type() == at::kBool) v.fill_(true);
      else v.fill_(-7);
    }
  } catch (const std::exception& e) {
    return base::Error{std::string("staging the inputs: ") + e.what()};
  }
  return device_->synchronize();
}

std::optional<Outcome> Judge::measure_window_cost() {
  const int places = static_cast<int>(in_views_.size());
  std::vector<double> one, many;
  RunnerAnswer a;
  for (int round = 0; round < 5; ++round) {
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
  return std::nullopt;
}

std::optional<Outcome> Judge::candidate_call(const std::vector<int>& places, bool timed, const std::string& where,
                                             RunnerAnswer* answer) {
  const bool spin = job_.backend == Backend::cuda;
  CallSlots in, out;
  for (int r : places) {
    in.push_back(layout_.inputs[r]);
    out.push_back(layout_.outputs[r]);
  }
  runner_->resume();
  auto a = timed ? runner_->timed_call(in, out, spin) : runner_->ask(Command::call, in, out, false);
  runner_->stop();
  if (!a) {
    o_.signal = runner_->death_signal();
    return finish(Status::crashed, runner_->death() + " during " + where);
  }
  switch (a->result) {
    case Reply::ok: break;
    case Reply::wrong_shape: return finish(Status::wrong_shape, a->text);
    case Reply::rejected: return finish(Status::rejected, a->text);
    default: return finish(Status::runtime_error, a->text.empty() ? "forward failed" : a->text);
  }
  *answer = *a;
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
  const int warm_place = (static_cast<int>(job_.correctness_seeds.size()) + 1) % 2;
  std::vector<double> warm_ref, warm_cand;
  for (int i = 0; i < opt.warmup; ++i) {
    auto t = device_->time_call([&] { return invoke(reference_, last_inputs, scratch); });
    if (!t) return finish(Status::runtime_error, "the reference failed: " + t.error().message);
    warm_ref.push_back(t->stream_ms);
    if (auto end = candidate_call({warm_place}, false, "warm-up", &a)) return end;
    warm_cand.push_back(a.claimed.empty() ? a.window_ms : a.claimed[0].stream_ms);
  }
  // A trial is a batch: each side makes `batch` calls back to back in one
  // window, each on inputs of its own at a place of its own, so that the
  // judge's fixed cost per window (its wake-up, the GPU's switch between the
  // two processes) is shared by the calls. Sized from the faster side's
  // warm-up; what the runner claims there can only change how many calls
  // share a window, within the arena's places.
  const int places = static_cast<int>(in_views_.size());
  int batch = 1;
  if (!warm_ref.empty()) {
    const double est = std::max(1e-3, std::min(median(warm_ref), median(warm_cand)));
    batch = static_cast<int>(std::clamp(std::ceil(opt.batch_ms / est), 1.0, static_cast<double>(places)));
  }
  // Which timed calls are checked, and how inputs move, is the judge's secret:
  // a generator the runner never sees.
  std::mt19937_64 pick(timing_seed ^ 0x5bd1e995a1b2c3d4ull);
  std::vector<CallTime> ref_calls, claims;  // per call
  std::vector<double> ref_windows, cand_windows;  // per batch
  double spent_ms = 0;
  int checked = 0;
  // Fresh inputs for every timed call: one set drawn here, then for each call
  // a copy moved by a shift only the judge knows (fresh(): the same
  // distribution, other values everywhere), at a place that moves on with
  // every call, so that an answer cached by pointer or by value is stale.
  std::vector<at::Tensor> base;
  try {
    base = draw_inputs(job_.inputs, timing_seed, where_);
  } catch (const std::exception& e) {
    return finish(Status::runtime_error, std::string("drawing inputs failed: ") + e.what());
  }
  std::vector<std::vector<at::Tensor>> inputs(batch), outs(batch), kept(batch);
  for (int trial = 0; trial < opt.max_trials; ++trial) {
    if (trial >= opt.min_trials && spent_ms >= opt.target_seconds * 1000) break;
    std::vector<int> spots;
    for (int k = 0; k < batch; ++k) {
      const int n = trial * batch + k;
      spots.push_back(n % places);
      try {
        inputs[k] = fresh(base, pick, timing_seed + 0x9e3779b97f4a7c15ull * (n + 1));
      } catch (const std::exception& e) {
        return finish(Status::runtime_error, std::string("drawing inputs failed: ") + e.what());
      }
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
      TRY_ASSIGN(std::vector<CallTime> times, device_->time_calls(batch, [&](int k) {
        return invoke(reference_, inputs[k], outs[k]);
      }));
      for (int k = 0; k < batch; ++k) {
        if (kept[k].size() != outs[k].size()) kept[k].clear();
        for (size_t o = 0; o < outs[k].size(); ++o) {
          if (kept[k].size() <= o) kept[k].push_back(at::empty_like(outs[k][o]));
          kept[k][o].copy_(outs[k][o]);
        }
      }
      TRY(device_->synchronize());
      ref_windows.push_back(ms_since(t0));
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
      if (auto s = measure_reference(); !s) return finish(Status::runtime_error, "the reference failed: " + s.error().message);
      if (auto end = measure_candidate()) return end;
    } else {
      if (auto end = measure_candidate()) return end;
      if (auto s = measure_reference(); !s) return finish(Status::runtime_error, "the reference failed: " + s.error().message);
    }
    // Every call of the first two batches, then one call, at random, of a quarter of the rest.
    std::vector<int> check;
    if (trial < 2) {
      for (int k = 0; k < batch; ++k) check.push_back(k);
    } else if (pick() % 4 == 0) {
      check.push_back(static_cast<int>(pick() % static_cast<uint64_t>(batch)));
    }
    for (int k : check) {
      ++checked;
      const int n = trial * batch + k;
      if (auto m = check_unchanged(in_views_[spots[k]], tensors_of(inputs[k]), names_))
        return finish(Status::rejected, *m + " (during timed call " + std::to_string(n) + ")");
      for (size_t o = 0; o < kept[k].size() && o < out_views_[spots[k]].size(); ++o) {
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
  std::vector<double> gaps;
  for (size_t t = 0; t < ref_windows.size(); ++t) {
    double sum = 0;
    for (int k = 0; k < batch; ++k) sum += ref_series[t * batch + k];
    gaps.push_back(std::max(0.0, ref_windows[t] - sum));
  }
  const double judge_cost = median(gaps) + (job_.backend == Backend::cpu ? futex_wake_latency_ms() : 0.0);
  Bound bound = bound_claims(claimed, cand_windows, batch, window_cost_, job_.backend, judge_cost);
  if (bound.rejected) {
    contradicted_ = true;
    return finish(Status::rejected, *bound.rejected + (pass > 0 ? " (in two timings on different inputs)" : ""));
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
  t.contradicted = pass;
  t.floored_calls = bound.floored;
  t.checked_calls = checked;
  t.batch_calls = batch;
  o_.timing = t;
  return std::nullopt;
}

std::vector<at::Tensor> Judge::fresh(const std::vector<at::Tensor>& base, std::mt19937_64& pick,
                                     uint64_t seed) const {
  // Elements drawn independently keep their joint distribution under any
  // permutation: a cyclic shift of the whole tensor, of whole rows (softmax
  // rows), or of rows and columns together (P A P^T: still symmetric, still
  // positive definite). Triangular inputs, and those too small to move, are
  // drawn again.
  std::vector<at::Tensor> out;
  for (size_t i = 0; i < base.size(); ++i) {
    const ResolvedInput& spec = job_.inputs[i];
    const at::Tensor& t = base[i];
    auto shift = [&](int64_t n) { return n > 1 ? 1 + static_cast<int64_t>(pick() % static_cast<uint64_t>(n - 1)) : 0; };
    at::Tensor moved;
    if (spec.is_scalar) {
      moved = t;
    } else if ((spec.then.empty() || spec.then == "sign") && t.numel() > 1) {
      moved = t.reshape({-1}).roll(shift(t.numel())).reshape(t.sizes());
    } else if (spec.then == "softmax" && t.dim() >= 2 && t.numel() / t.size(-1) > 1) {
      int64_t rows = t.numel() / t.size(-1);
      moved = t.reshape({rows, t.size(-1)}).roll(shift(rows), 0).reshape(t.sizes());
    } else if (spec.then == "symmetric" && t.dim() >= 2 && t.size(-1) > 1) {
      int64_t s = shift(t.size(-1));
      moved = t.roll({s, s}, {-2, -1});
    } else {
      moved = draw_inputs({spec}, seed + i, where_)[0];
    }
    out.push_back(moved.contiguous());
  }
  return out;
}

void Judge::profile(const std::vector<at::Tensor>& inputs, int region) {
  // Each side is profiled where it runs: the reference here, the candidate in the runner.
  progress_("profile");
  auto t0 = Clock::now();
  std::vector<at::Tensor> scratch;
  auto mine = profiler::profile_with_cupti(
      job_.device, job_.profile.metrics, [] { return base::Status{}; },
      [&] { return call(reference_, *device_, inputs, scratch); });
  profiler::Profile p;
  p.tool = "cupti";
  if (mine) p = std::move(mine).value();
  else p.counters_note = "no profile of the reference: " + mine.error().message;
  runner_->resume();
  auto theirs = runner_->ask(Command::profile, {layout_.inputs[region]}, {}, false);
  runner_->stop();
  std::string note;
  if (!theirs) {
    note = "no profile of the candidate: " + runner_->death();
  } else if (theirs->result != Reply::ok) {
    note = "no profile of the candidate: " + theirs->text;
  } else {
    auto parsed = nlohmann::json::parse(theirs->text, nullptr, false);
    auto decoded = parsed.is_discarded() ? base::Result<profiler::Profile>(base::Error{"not JSON"}) : profiler::profile_from_json(parsed);
    if (decoded) {
      p.candidate = decoded->candidate;
      p.counters = p.counters && decoded->counters;
      if (!decoded->counters_note.empty()) note = decoded->counters_note;
    } else {
      note = "the candidate's profile is malformed: " + decoded.error().message;
    }
  }
  if (!note.empty()) p.counters_note = p.counters_note.empty() ? note : p.counters_note + "; " + note;
  p.overhead_ms = ms_since(t0);
  o_.profile = std::move(p);
}

Outcome Judge::profile_for_ncu() {
  // Nsight Compute follows this process, not the runner it would start in a
  // sandbox of its own: only the reference (and the marker) run here.
  std::vector<at::Tensor> inputs, expected;
  try {
    inputs = draw_inputs(job_.inputs, job_.timing_seed, where_);
  } catch (const std::exception& e) {
    return finish(Status::runtime_error, std::string("drawing inputs failed: ") + e.what());
  }
  auto run_reference = [&] { return call(reference_, *device_, inputs, expected); };
  base::Status s = run_reference();
  if (s) s = profiler::profile_window_for_ncu([] { return base::Status{}; }, run_reference);
  o_.profile = profiler::Profile{};  // ncu gives the kernels; the judge gives the device's limits
  o_.profile->tool = "ncu";
  o_.profile->device = profiler::device_limits(job_.device);
  return s ? finish(Status::correct, kProfiledMessage) : finish(Status::runtime_error, s.error().message);
}

Outcome Judge::run() {
  auto phase_start = Clock::now();
  auto end_phase = [&](const char* name) {
    o_.phases_ms[name] = ms_since(phase_start);
    phase_start = Clock::now();
  };
  // The runner starts first: its process, LibTorch and its device context
  // come up while the judge sets up its own and runs the reference.
  progress_("load");
  auto candidate = sealed_library(job_.candidate_library, job_.candidate_digest, "candidate");
  if (!candidate) return finish(Status::load_error, candidate.error().message);
  candidate_fd_ = *candidate;
  const bool under_ncu = job_.profile.tool == "ncu";
  if (!under_ncu)
    if (auto end = launch_runner()) return *end;
  end_phase("runner_launch");

  progress_("device");
  auto device_or = make_device(job_.backend, job_.device, job_.threads);
  if (!device_or) return finish(Status::runtime_error, device_or.error().message);
  device_ = std::move(device_or).value();
  o_.versions = device_->describe();
  where_ = job_.backend == Backend::cuda ? at::Device(at::kCUDA, job_.device) : at::Device(at::kCPU);
  end_phase("device_init");

  progress_("load");
  auto reference = load_reference(job_);
  if (!reference) return finish(Status::load_error, reference.error().message);
  reference_ = *reference;
  for (const auto& in : job_.inputs)
    if (!in.is_scalar) names_.push_back(in.name);
  end_phase("load");

  if (under_ncu) return profile_for_ncu();

  double inputs_ms = 0, runner_ms = 0;
  bool mismatch = false;
  std::vector<at::Tensor> inputs;
  RunnerAnswer a;
  for (size_t t = 0; t < job_.correctness_seeds.size(); ++t) {
    const std::string trial = " trial " + std::to_string(t);
    const int r = static_cast<int>(t % 2);
    progress_("inputs" + trial);
    auto t0 = Clock::now();
    std::vector<at::Tensor> expected;
    try {
      inputs = draw_inputs(job_.inputs, job_.correctness_seeds[t], where_);
      if (auto s = device_->synchronize(); !s) return finish(Status::runtime_error, s.error().message);
    } catch (const std::exception& e) {
      return finish(Status::runtime_error, std::string("drawing inputs failed: ") + e.what());
    }
    inputs_ms += ms_since(t0);
    progress_("reference" + trial);
    if (auto s = call(reference_, *device_, inputs, expected); !s)
      return finish(Status::runtime_error, "the reference failed: " + s.error().message);
    if (!connected_) {
      auto t_runner = Clock::now();
      if (auto end = connect_runner(inputs, expected)) return *end;
      runner_ms = ms_since(t_runner);
      o_.phases_ms["runner"] = runner_ms;
    } else if (auto m = check_structure(expected, out_views_[0])) {
      return finish(Status::runtime_error, "the reference's outputs changed shape between trials: " + *m);
    }
    if (auto s = stage(inputs, r); !s) return finish(Status::runtime_error, s.error().message);
    progress_("candidate" + trial);
    if (auto end = candidate_call({r}, false, "candidate" + trial, &a)) return *end;
    o_.output_shapes.clear();
    for (const auto& e : expected) o_.output_shapes.push_back(describe(e));
    progress_("checks" + trial);
    if (auto m = check_unchanged(in_views_[r], tensors_of(inputs), names_)) return finish(Status::rejected, *m);
    progress_("compare" + trial);
    for (size_t k = 0; k < expected.size(); ++k) {
      TrialDiff d = compare_values(out_views_[r][k], expected[k], job_.tolerance, job_.max_reported_mismatches);
      d.trial = static_cast<int>(t);
      d.output = static_cast<int>(k);
      mismatch = mismatch || d.mismatches > 0;
      o_.trials.push_back(std::move(d));
    }
  }
  o_.phases_ms["inputs"] = inputs_ms;
  end_phase("correctness");
  o_.phases_ms["correctness"] = o_.phases_ms["correctness"].get<double>() - inputs_ms - runner_ms;
  if (!connected_) return finish(Status::runtime_error, "the job has no correctness trials");
  if (mismatch) {
    int failed = 0;
    for (const auto& d : o_.trials) failed += d.mismatches > 0;
    return finish(Status::mismatch, "output differs from the reference in " + std::to_string(failed) + " of " +
                                        std::to_string(o_.trials.size()) + " trials");
  }
  if (!job_.timing.enabled) return finish(Status::correct, "correct; timing disabled");
  // On cuda a contradicted timing is measured once more before the verdict:
  // a descheduling of the judge or the runner (a host loaded by compiles)
  // inflates windows now and then, a liar's claims fall short every time.
  for (int pass = 0;; ++pass) {
    auto end = time_both(inputs, pass);
    if (!end) break;
    if (!(contradicted_ && pass == 0 && job_.backend == Backend::cuda)) return *end;
  }
  end_phase("timing");
  char buf[128];
  std::snprintf(buf, sizeof buf, "correct; speedup %.3fx", o_.timing->speedup);
  if (job_.profile.tool == "cupti" && job_.backend == Backend::cuda) {
    profile(inputs, static_cast<int>((job_.correctness_seeds.size() + 1) % 2));
    end_phase("profile");
  }
  return finish(Status::correct, buf);
}

}  // namespace

Outcome run_job(const WorkerJob& job) {
  Outcome o;
  Progress progress(job.progress_path);
  std::string dir = job.result_path.substr(0, job.result_path.rfind('/') + 1);
  std::string root = (dir.empty() ? std::string("./") : dir) + "runner-root";
  mkdir(root.c_str(), 0700);
  Judge judge(job, o, progress, root);
  return judge.run();
}

}  // namespace eval::worker
