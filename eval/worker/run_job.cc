#include "eval/worker/run_job.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <torch/torch.h>

#include "eval/shim.h"
#include "eval/worker/compare.h"
#include "eval/worker/device.h"
#include "eval/worker/inputs.h"
#include "eval/worker/gpu_profiler.h"
#include "eval/worker/timing.h"

namespace eval::worker {
namespace {

using Entry = int (*)(const void*, void*, char*, unsigned long);
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

base::Result<Entry> load(const std::string& path, const char* what) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return base::Error{std::string(what) + " library failed to load: " + dlerror()};
  void* symbol = dlsym(handle, kEntrySymbol);
  if (!symbol)
    return base::Error{std::string(what) + " library has no entry point " + kEntrySymbol};
  return reinterpret_cast<Entry>(symbol);
}

// Calls an entry point; its outputs land in `out`.
base::Status invoke(Entry entry, const std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
  out.clear();
  char error[4096] = {0};
  at::NoGradGuard no_grad;
  if (entry(&in, &out, error, sizeof error) != 0) return base::Error{error[0] ? error : "forward failed"};
  return {};
}

// Calls an entry point, then synchronises so asynchronous faults surface here.
base::Status call(Entry entry, Device& device, const std::vector<at::Tensor>& in,
                  std::vector<at::Tensor>& out) {
  TRY(invoke(entry, in, out));
  return device.synchronize();
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// A profile-only job under ncu: one warm-up call of each, then the window ncu
// profiles. The verdict was given by the evaluation before this one.
Outcome profile_for_ncu(const WorkerJob& job, Outcome& o, Entry reference, Entry candidate, Device& device,
                        const at::Device& where) {
  std::vector<at::Tensor> inputs, candidate_inputs, scratch;
  try {
    inputs = draw_inputs(job.inputs, job.timing_seed, where);
    candidate_inputs = clone_all(inputs);
  } catch (const std::exception& e) {
    o.status = Status::runtime_error;
    o.message = std::string("drawing inputs failed: ") + e.what();
    return o;
  }
  auto run_candidate = [&] { return call(candidate, device, candidate_inputs, scratch); };
  auto run_reference = [&] { return call(reference, device, inputs, scratch); };
  base::Status s = run_candidate();
  if (s) s = run_reference();
  if (s) s = profile_window_for_ncu(run_candidate, run_reference);
  o.status = s ? Status::correct : Status::runtime_error;
  o.message = s ? "profiled under ncu" : s.error().message;
  o.profile = Profile{};  // ncu gives the kernels; the worker gives the device's limits
  o.profile->tool = "ncu";
  o.profile->device = device_limits(job.device);
  return o;
}

}  // namespace

Outcome run_job(const WorkerJob& job) {
  Outcome o;
  Progress progress(job.progress_path);
  auto phase_start = Clock::now();
  auto end_phase = [&](const char* name) {
    o.phases_ms[name] = ms_since(phase_start);
    phase_start = Clock::now();
  };
  auto finish = [&](Status status, std::string message) {
    o.status = status;
    o.message = std::move(message);
    return o;
  };

  progress("device");
  auto device_or = make_device(job.backend, job.device, job.threads);
  if (!device_or) return finish(Status::runtime_error, device_or.error().message);
  Device& device = **device_or;
  o.versions = device.describe();
  const at::Device where = job.backend == Backend::cuda ? at::Device(at::kCUDA, job.device)
                                                         : at::Device(at::kCPU);
  end_phase("device_init");

  progress("load");
  auto reference = load(job.reference_library, "reference");
  if (!reference) return finish(Status::load_error, reference.error().message);
  auto candidate = load(job.candidate_library, "candidate");
  if (!candidate) return finish(Status::load_error, candidate.error().message);
  end_phase("load");
  if (job.profile.tool == "ncu") return profile_for_ncu(job, o, *reference, *candidate, device, where);

  std::vector<std::string> names;
  for (const auto& in : job.inputs) names.push_back(in.name);
  double inputs_ms = 0;
  bool mismatch = false;
  for (size_t t = 0; t < job.correctness_seeds.size(); ++t) {
    const std::string trial = " trial " + std::to_string(t);
    progress("inputs" + trial);
    auto t0 = Clock::now();
    std::vector<at::Tensor> inputs, candidate_inputs, expected, actual;
    try {
      inputs = draw_inputs(job.inputs, job.correctness_seeds[t], where);
      candidate_inputs = clone_all(inputs);
      if (auto s = device.synchronize(); !s) return finish(Status::runtime_error, s.error().message);
    } catch (const std::exception& e) {
      return finish(Status::runtime_error, std::string("drawing inputs failed: ") + e.what());
    }
    inputs_ms += ms_since(t0);

    progress("candidate" + trial);
    if (auto s = call(*candidate, device, candidate_inputs, actual); !s)
      return finish(Status::runtime_error, s.error().message);
    o.output_shapes.clear();
    for (const auto& a : actual) o.output_shapes.push_back(describe(a));
    progress("checks" + trial);
    if (auto m = check_no_alias(actual, candidate_inputs, names)) return finish(Status::rejected, *m);
    if (auto m = check_unchanged(candidate_inputs, inputs, names)) return finish(Status::rejected, *m);

    progress("reference" + trial);
    if (auto s = call(*reference, device, inputs, expected); !s)
      return finish(Status::runtime_error, "the reference failed: " + s.error().message);
    progress("compare" + trial);
    if (auto m = check_structure(actual, expected)) return finish(Status::wrong_shape, *m);
    for (size_t k = 0; k < expected.size(); ++k) {
      TrialDiff d = compare_values(actual[k], expected[k], job.tolerance, job.max_reported_mismatches);
      d.trial = static_cast<int>(t);
      d.output = static_cast<int>(k);
      mismatch = mismatch || d.mismatches > 0;
      o.trials.push_back(std::move(d));
    }
  }
  o.phases_ms["inputs"] = inputs_ms;
  end_phase("correctness");
  o.phases_ms["correctness"] = o.phases_ms["correctness"].get<double>() - inputs_ms;
  if (mismatch) {
    int failed = 0;
    for (const auto& d : o.trials) failed += d.mismatches > 0;
    return finish(Status::mismatch, "output differs from the reference in " + std::to_string(failed) +
                                        " of " + std::to_string(o.trials.size()) + " trials");
  }
  if (!job.timing.enabled) return finish(Status::correct, "correct; timing disabled");

  progress("timing inputs");
  std::vector<at::Tensor> inputs, candidate_inputs, scratch;
  try {
    inputs = draw_inputs(job.inputs, job.timing_seed, where);
    candidate_inputs = clone_all(inputs);
  } catch (const std::exception& e) {
    return finish(Status::runtime_error, std::string("drawing inputs failed: ") + e.what());
  }
  progress("timing");
  auto timing = time_interleaved(
      device, job.timing,
      [&]() -> base::Status {
        auto s = invoke(*reference, inputs, scratch);
        return s ? s : base::Error{"the reference failed: " + s.error().message};
      },
      [&]() { return invoke(*candidate, candidate_inputs, scratch); });
  if (!timing) return finish(Status::runtime_error, "during timing: " + timing.error().message);
  if (auto s = device.synchronize(); !s) return finish(Status::runtime_error, s.error().message);
  if (auto m = check_unchanged(candidate_inputs, inputs, names))
    return finish(Status::rejected, *m + " (during timing)");
  o.timing = *timing;
  end_phase("timing");
  char buf[128];
  std::snprintf(buf, sizeof buf, "correct; speedup %.3fx", timing->speedup);

  if (job.profile.tool == "cupti" && job.backend == Backend::cuda) {
    // A profile that cannot be taken says why; the verdict stands.
    progress("profile");
    auto t0 = Clock::now();
    auto profile = profile_with_cupti(
        job.device, job.profile.metrics,
        [&] { return call(*candidate, device, candidate_inputs, scratch); },
        [&] { return call(*reference, device, inputs, scratch); });
    if (profile) {
      o.profile = std::move(profile).value();
    } else {
      o.profile = Profile{};
      o.profile->tool = "cupti";
      o.profile->counters_note = "no profile: " + profile.error().message;
    }
    o.profile->overhead_ms = ms_since(t0);
    end_phase("profile");
  }
  return finish(Status::correct, buf);
}

}  // namespace eval::worker
