#include "eval/worker/run_job.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <thread>

#include "base/fs.h"
#include "base/text.h"
#include "eval/build/compiler.h"
#include "eval/build/language.h"
#include "eval/build/shim.h"
#include "eval/worker/arena.h"
#include "eval/worker/compare.h"
#include "eval/worker/device.h"
#include "eval/worker/entry.h"
#include "eval/worker/inputs.h"
#include "eval/worker/judge.h"
#include "eval/worker/judge_setup.h"
#include "eval/worker/runner.h"
#include "eval/worker/runner_link.h"
#include "eval/worker/timing.h"
#include "profiler/cupti.h"

namespace eval::worker {
namespace {

base::Result<Entry> load_reference(const WorkerJob& job) {
  TRY_ASSIGN(int fd, sealed_library(job.reference_library, job.reference_digest, "reference"));
  void* handle = dlopen(("/proc/self/fd/" + std::to_string(fd)).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return base::Error{std::string("reference library failed to load: ") + dlerror()};
  void* symbol = dlsym(handle, kEntrySymbol);
  if (!symbol) return base::Error{std::string("reference library has no entry point ") + kEntrySymbol};
  return reinterpret_cast<Entry>(symbol);
}

std::string self_path() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

}  // namespace

base::Status call(Entry entry, Device& device, const std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
  TRY(invoke(entry, in, out));
  return device.synchronize();
}

base::Result<std::string> runner_program(const WorkerJob& job) {
  std::string program = self_path();
  if (language(job.candidate_language).loader != Loader::python) return program;
  // Beside this program; its interpreter reads the modules on the sys.path refinery was built with.
  program = (std::filesystem::path(program).parent_path() / "refinery-python-runner").string();
  if (access(program.c_str(), X_OK) != 0)
    return base::Error{
        "a Python candidate needs refinery-python-runner beside refinery-worker, and this build of "
        "refinery has none (it was configured without a Python whose torch is its LibTorch)"};
  return program;
}

base::Result<StartedRunner> start_runner(const WorkerJob& job, const std::string& root_dir) {
  RunnerStart s;
  TRY_ASSIGN(s.program, runner_program(job));
  if (language(job.candidate_language).loader == Loader::python)
    for (const auto& p : build_toolchain().python_path)
      if (!p.empty() && std::filesystem::is_directory(p)) s.read_only.push_back(p);
  s.root_dir = root_dir;
  s.env = runner_environment();
  s.scratch_bytes = job.scratch_bytes;
  s.limits = {{RLIMIT_CORE, 0},   {RLIMIT_NPROC, 512},         {RLIMIT_NICE, 0},
              {RLIMIT_RTPRIO, 0}, {RLIMIT_FSIZE, 64ull << 20}, {RLIMIT_NOFILE, 4096}};
  StartedRunner started;
  if (!job.runner_cgroup.empty()) {
    auto joined = base::MemoryCgroup::join(job.runner_cgroup, job.runner_cgroup_version);
    if (joined)
      started.cgroup = std::move(joined).value();
    else
      s.no_cgroup_because = joined.error().message;
  } else if (job.runner_memory_bytes > 0) {
    s.no_cgroup_because = job.runner_cgroup_note;
  }
  s.cgroup = started.cgroup.get();
  auto link = RunnerLink::start(s);
  if (!link) return link.error().wrap("the sandboxed runner did not start");
  started.link = std::move(link).value();
  return started;
}

std::optional<Outcome> Judge::launch_runner() {
  if (!runner_) {
    if (auto program = runner_program(job_); !program) return finish(Status::load_error, program.error().message);
    auto started = start_runner(job_, root_dir_);
    if (!started) return finish(Status::runtime_error, started.error().message);
    adopt(std::move(started).value());
  }
  if (auto sent = runner_->send_job(runner_job(job_).dump(), candidate_fd_); !sent) {
    // A standby's runner that closed its socket is gone or going, with no model code ever in it.
    standby_lost_ = adopted_;
    return finish(Status::runtime_error, "the sandboxed runner did not start: " + sent.error().message);
  }
  return std::nullopt;
}

std::optional<Outcome> Judge::connect_runner(const std::vector<at::Tensor>& inputs,
                                             const std::vector<at::Tensor>& outputs) {
  progress_("runner");
  if (auto s = runner_->ready(); !s) {
    // A standby's runner that died before its hello held no model code (the
    // candidate loads after it): its death says nothing of the candidate, and
    // the launcher evaluates the job afresh. It may have died while it waited,
    // just before the hand-off, where the standby could not yet see it.
    standby_lost_ = adopted_ && !runner_->running();
    return finish(Status::runtime_error, s.error().message);
  }
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
  const int places = job_.timing.enabled ? places_within(tensors_of(inputs), outputs, batch_budget(job_.backend)) : 2;
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
  evidence_.note = loaded->text;  // why there is no launch watch, when there is none
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
      if (v.is_floating_point())
        v.fill_(std::numeric_limits<double>::quiet_NaN());
      else if (v.scalar_type() == at::kBool)
        v.fill_(true);
      else
        v.fill_(-7);
    }
  } catch (const std::exception& e) {
    return base::Error{std::string("staging the inputs: ") + e.what()};
  }
  return device_->synchronize();
}

void Judge::take_evidence(const RunnerAnswer& a, bool timed) {
  if (!a.watched || !connected_) return;  // before the load: the runner's stand-in calls
  KernelEvidence& e = evidence_;
  e.watched = true;
  e.own_launches += a.own_launches;
  e.other_launches += a.other_launches;
  e.own_us += a.own_kernel_us;
  e.other_us += a.other_kernel_us;
  if (timed) {
    e.timed_own += a.own_launches;
    e.timed_other += a.other_launches;
    e.timed_graphs += a.graph_launches;
    e.streams_created += a.streams_created;
    e.threads_left = std::max(e.threads_left, a.threads_left);
  }
  if (e.top_other.empty() && !a.top_other.empty()) e.top_other = a.top_other;
}

std::optional<Outcome> Judge::candidate_call(const std::vector<int>& places, bool timed, const std::string& where,
                                             RunnerAnswer* answer, bool checked) {
  const bool spin = job_.backend == Backend::cuda;
  CallSlots in, out;
  for (int r : places) {
    in.push_back(layout_.inputs[r]);
    out.push_back(layout_.outputs[r]);
  }
  runner_->resume();
  auto a = timed ? runner_->timed_call(in, out, spin) : runner_->ask(Command::call, in, out, false, checked);
  runner_->stop();
  if (!a) {
    o_.signal = runner_->death_signal();
    return finish(Status::crashed, runner_->death() + " during " + where);
  }
  take_evidence(*a, timed);  // set before the runner's own checks of the outputs
  switch (a->result) {
    case Reply::ok:
      break;
    case Reply::wrong_shape:
      return finish(Status::wrong_shape, a->text);
    case Reply::rejected:
      return finish(Status::rejected, a->text);
    default:
      return finish(Status::runtime_error, a->text.empty() ? "forward failed" : a->text);
  }
  *answer = *a;
  return std::nullopt;
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
  if (mine)
    p = std::move(mine).value();
  else
    p.counters_note = "no profile of the reference: " + mine.error().message;
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
    auto decoded = parsed.is_discarded() ? base::Result<profiler::Profile>(base::Error{"not JSON"})
                                         : profiler::profile_from_json(parsed);
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
    inputs = draw_inputs(job_.inputs, hidden(job_.timing_seed), where_);
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

base::Status Judge::take_secret() {
  if (job_.entropy.empty()) {
    // From the kernel, once the runner is started: it is another program,
    // cloned before this was drawn.
    uint8_t bytes[16];
    size_t got = 0;
    while (got < sizeof bytes) {
      ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return base::Error{std::string("getrandom: ") + std::strerror(errno)};
      got += static_cast<size_t>(n);
    }
    for (int w = 0; w < 2; ++w)
      for (int b = 0; b < 8; ++b) secret_[w] = (secret_[w] << 8) | bytes[w * 8 + b];
  } else {
    if (!is_entropy(job_.entropy)) return base::Error{"the job's entropy is not 32 hex digits"};
    secret_[0] = std::stoull(job_.entropy.substr(0, 16), nullptr, 16);
    secret_[1] = std::stoull(job_.entropy.substr(16), nullptr, 16);
  }
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(secret_[0]),
                static_cast<unsigned long long>(secret_[1]));
  o_.entropy = hex;
  return {};
}

uint64_t Judge::hidden(uint64_t seed) const {
  // SplitMix64's finaliser over the seed and each half of the secret: a
  // change in either changes every bit.
  auto mix = [](uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  return mix(mix(seed ^ secret_[0]) ^ secret_[1]) & 0x7fffffffffffffffull;  // LibTorch seeds are signed-safe
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
  const bool under_ncu = job_.profile.tool == Profiler::ncu;
  if (!under_ncu)
    if (auto end = launch_runner()) return *end;
  end_phase("runner_launch");
  // After the clone: not even the runner's copy of this process before its
  // exec ever held the secret.
  if (auto s = take_secret(); !s) return finish(Status::runtime_error, s.error().message);

  progress_("device");
  auto device_or = make_device(job_.backend, job_.device, job_.threads, job_.tf32_cudnn);
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
    if (!in.is_scalar) names_.push_back(in.entry.empty() ? in.name : in.name + " (" + in.entry + ")");
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
      inputs = draw_inputs(job_.inputs, hidden(job_.correctness_seeds[t]), where_);
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
    if (auto end = candidate_call({r}, false, "candidate" + trial, &a, /*checked=*/true)) return *end;
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
  // A contradicted timing is measured again, on other inputs, up to
  // kTimings in all, before the verdict: a descheduling of the judge or the
  // runner (a host loaded by compiles, or by other tests) inflates windows now
  // and then, a liar's claims fall short every time.
  for (int pass = 0;; ++pass) {
    auto end = time_both(inputs, pass);
    if (!end) break;
    if (!contradicted_ || pass + 1 >= kTimings) return *end;
  }
  end_phase("timing");
  char buf[128];
  std::snprintf(buf, sizeof buf,
                o_.timing->lower_bound ? "correct; speedup at least %.3fx (calls below the judge's resolution)"
                                       : "correct; speedup %.3fx",
                o_.timing->speedup);
  if (job_.profile.tool == Profiler::cupti && job_.backend == Backend::cuda) {
    // The verdict goes to disk before the profile: a profile that runs past
    // the worker's deadline then costs the profile, not the verdict (the
    // launcher keeps this result when the worker is killed during "profile").
    (void)base::write_file_atomic(job_.result_path, to_json(finish(Status::correct, buf)).dump(2));
    profile(inputs, static_cast<int>((job_.correctness_seeds.size() + 1) % 2));
    end_phase("profile");
  }
  return finish(Status::correct, buf);
}

std::string runner_root(const WorkerJob& job) {
  std::string dir = job.result_path.substr(0, job.result_path.rfind('/') + 1);
  std::string root = (dir.empty() ? std::string("./") : dir) + "runner-root";
  mkdir(root.c_str(), 0700);
  return root;
}

Outcome run_job(const WorkerJob& job, StartedRunner* started, bool* standby_lost) {
  Outcome o;
  Progress progress(job.progress_path);
  Judge judge(job, o, progress, runner_root(job));
  if (started) {
    o.runner_standby = true;
    judge.adopt(std::move(*started));
  }
  Outcome result = judge.run();
  if (standby_lost) *standby_lost = judge.standby_lost();
  return result;
}

}  // namespace eval::worker
