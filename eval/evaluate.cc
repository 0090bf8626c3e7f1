#include "eval/evaluate.h"
#include "eval/verdict/quarantine.h"
#include "eval/verdict/speed_of_light.h"

#include <chrono>
#include <future>
#include <random>

#include "base/fs.h"
#include "base/redact.h"
#include "eval/build/shim.h"
#include "profiler/ncu.h"

namespace eval {
using base::Error;
using base::Result;
using Clock = std::chrono::steady_clock;

std::vector<uint64_t> derive_seeds(uint64_t master, int count) {
  std::vector<uint64_t> out;
  uint64_t x = master;
  for (int i = 0; i < count; ++i) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    out.push_back((z ^ (z >> 31)) & 0x7fffffffffffffffull);  // LibTorch seeds are signed-safe
  }
  return out;
}

void kernelbench_draws(std::vector<ResolvedInput>& inputs) {
  using K = DrawSpec::Kind;
  for (auto& in : inputs) {
    if (in.kernelbench_draw) {
      in.draw = *in.kernelbench_draw;
    } else if (!in.is_scalar && !in.is_weight && is_floating(in.dtype) &&
               (in.draw.kind == K::uniform || in.draw.kind == K::normal)) {
      in.draw = {K::uniform, 0, 1};
    }
  }
}

namespace {

Tolerance tolerance_without_settings(const Problem& problem, Mode mode) {
  if (mode == Mode::kernelbench) return {1e-2, 1e-2};
  if (problem.tolerance) return *problem.tolerance;
  for (const auto& in : problem.inputs)
    if (!in.is_scalar && is_floating(in.dtype)) return default_tolerance(in.dtype);
  return default_tolerance(DType::float32);
}

// The inputs a Python build that runs the module once (Triton) makes up, as
// its driver reads them (python_build.py's "warm").
std::string warm_specs(const std::vector<ResolvedInput>& inputs) {
  nlohmann::json specs = nlohmann::json::array();
  for (const auto& in : inputs)
    specs.push_back({{"shape", in.shape},
                     {"dtype", to_string(in.dtype)},
                     {"scalar", in.is_scalar},
                     {"value", in.scalar_value},
                     {"weight", in.is_weight}});
  return specs.dump();
}

// The end of a build's log, where its error is.
std::string log_tail(const std::string& log) {
  constexpr size_t kKept = 1500;
  return log.size() <= kKept ? log : "..." + log.substr(log.size() - kKept);
}

// The precision the outcome's problem ran at, where eval.precision is not fp32.
void note_precision(const Problem& problem, const EvalSettings& settings, Outcome& outcome) {
  if (settings.precision == DType::float32) return;
  outcome.precision = precision_name(precision_for(problem, settings.precision, &outcome.precision_note));
}

}  // namespace

void apply_precision(std::vector<ResolvedInput>& inputs, DType precision) {
  if (precision == DType::float32) return;
  for (auto& in : inputs)
    if (!in.is_scalar && in.dtype == DType::float32) in.dtype = precision;
}

DType precision_for(const Problem& problem, DType asked, std::string* why) {
  for (const auto& [unfit, reason] : problem.unfit_precisions)
    if (unfit == asked) {
      if (why) *why = problem.id + " runs at fp32: its spec calls " + precision_name(asked) + " unfit (" + reason + ")";
      return DType::float32;
    }
  return asked;
}

Tolerance effective_tolerance(const Problem& problem, const EvalSettings& settings) {
  Tolerance t = tolerance_without_settings(problem, settings.mode);
  if (const DType precision = precision_for(problem, settings.precision); precision != DType::float32) {
    const Tolerance at = default_tolerance(precision);
    t = {std::max(t.atol, at.atol), std::max(t.rtol, at.rtol)};
  }
  if (settings.atol) t.atol = *settings.atol;
  if (settings.rtol) t.rtol = *settings.rtol;
  return t;
}

WorkerJob make_job(const Problem& problem, const EvalSettings& settings, std::vector<ResolvedInput> inputs,
                   const CompiledLibrary& reference, const CompiledLibrary& candidate, LanguageId candidate_language,
                   uint64_t master_seed) {
  WorkerJob job;
  job.problem_id = problem.id;
  job.backend = settings.backend;
  job.device = settings.device;
  job.threads = settings.threads;
  job.reference_library = reference.library_path;
  job.candidate_library = candidate.library_path;
  job.candidate_language = candidate_language;
  if (language(candidate_language).loader == Loader::python)
    if (auto init = python_init_args(problem, to_string(settings.size))) job.python_init = *init;
  job.reference_digest = reference.digest;
  job.candidate_digest = candidate.digest;
  job.allow_untrusted = settings.allow_untrusted;
  job.launch_watch = settings.launch_watch;
  job.timing = settings.timing;
  job.inputs = std::move(inputs);
  auto seeds = derive_seeds(master_seed, settings.trials + 1);
  job.timing_seed = seeds.back();
  seeds.pop_back();
  job.correctness_seeds = seeds;
  job.entropy = settings.entropy;
  job.tolerance = effective_tolerance(problem, settings);
  if (settings.backend == Backend::cuda && settings.profile.tool == Profiler::cupti) job.profile = settings.profile;
  // The compat mode last, over what the settings gave, so that no later
  // assignment undoes it (a copy of the timing options made after it once
  // had --compat kernelbench flush the L2 before every call).
  apply_precision(job.inputs, precision_for(problem, settings.precision));
  if (settings.mode == Mode::kernelbench) {
    kernelbench_draws(job.inputs);
    job.tf32_cudnn = true;           // PyTorch's default, which KernelBench leaves alone
    job.timing.flush_cache = false;  // KernelBench times back-to-back calls
  }
  return job;
}

Result<Outcome> Evaluator::evaluate(const Problem& problem, const std::string& candidate_source,
                                    const EvalSettings& settings) {
  // A bad size preset is a usage error: say so before compiling anything.
  if (auto inputs = resolve_inputs(problem, settings.size); !inputs) return inputs.error();
  TRY_ASSIGN(std::string reference_source, base::read_file(problem.reference_path));
  const std::string shim = make_shim(problem);
  auto t0 = Clock::now();

  // The static checks come before the compiler: a rejected source costs nothing more.
  const Language& language = eval::language(settings.language.value_or(language_for(settings.backend)));
  std::vector<Finding> findings;
  switch (language.checks) {
    case Checks::c_family:
      findings = scan_source(candidate_source, settings.static_checks);
      break;
    case Checks::python:
      findings = scan_python(candidate_source, settings.static_checks);
      break;
  }
  const double static_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (std::string why = rejection_message(findings); !why.empty()) {
    Outcome outcome;
    outcome.status = Status::rejected;
    outcome.message = why;
    outcome.phase = "static_checks";
    outcome.mode = to_string(settings.mode);
    outcome.language = language.name;
    // Whatever the result file said, these are refinery's to set.
    outcome.device = -1;
    outcome.devices_retired.clear();
    outcome.static_findings = std::move(findings);
    outcome.phases_ms["total"] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    redact(outcome, base::Redactor(settings.secrets));
    return outcome;
  }

  CompileJob ref_job{settings.backend, LanguageId::cxx, /*reference=*/true, reference_source, shim, "reference"};
  // What the candidate's loader calls: for a shared library, the shim's entry point.
  std::string candidate_shim;
  std::vector<int64_t> init_args;
  std::string warm_inputs;
  switch (language.loader) {
    case Loader::shared_library:
      candidate_shim = shim;
      break;
    case Loader::python: {
      if (problem.python_reference_path.empty())
        return Error{problem.id +
                     " has no reference.py, which a Python candidate needs (its Model's constructor "
                     "and weight names)"};
      TRY_ASSIGN(init_args, python_init_args(problem, to_string(settings.size)));
      // The inputs a build that runs the module once (Triton) makes up.
      TRY_ASSIGN(std::vector<ResolvedInput> resolved, resolve_inputs(problem, settings.size));
      apply_precision(resolved, precision_for(problem, settings.precision));
      warm_inputs = warm_specs(resolved);
      break;
    }
  }
  CompileJob cand_job{settings.backend, language.id, false,     candidate_source,
                      candidate_shim,   "candidate", init_args, warm_inputs};
  auto ref_future = std::async(std::launch::async, [&] { return compiler_.compile(ref_job); });
  auto cand = compiler_.compile(cand_job);
  auto ref = ref_future.get();
  double compile_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (!ref) return ref.error().wrap(problem.id + ": compiling the reference");
  if (!ref->ok) return Error{problem.id + ": the reference does not compile:\n" + ref->log};
  if (!cand) return cand.error().wrap("compiling the candidate");

  // The preprocessed source next: a name built by a macro is spelt out
  // there (and the compile that made it ran in the compilers' sandbox).
  const auto p0 = Clock::now();
  std::vector<Finding> hidden;
  switch (language.checks) {
    case Checks::c_family:
      hidden = scan_preprocessed(cand->preprocessed, findings, settings.static_checks);
      break;
    case Checks::python:
      break;  // no preprocessor; the sources it builds inline were scanned with the module
  }
  findings.insert(findings.end(), hidden.begin(), hidden.end());
  const double preprocessed_ms = std::chrono::duration<double, std::milli>(Clock::now() - p0).count();
  Outcome outcome;
  if (std::string why = rejection_message(hidden); !why.empty()) {
    outcome.status = Status::rejected;
    outcome.message = why;
    outcome.phase = "static_checks";
  } else if (!cand->ok && cand->timed_out) {
    outcome.status = Status::timeout;
    outcome.message = "the candidate's build did not finish within its deadline";
    outcome.phase = "compile";
  } else if (!cand->ok) {
    outcome.status = Status::compile_error;
    outcome.message = language.loader == Loader::python ? "the candidate's module does not import and build"
                                                        : "the candidate does not compile";
  } else {
    TRY_ASSIGN(outcome, run_worker(problem, *ref, *cand, language.id, settings,
                                   language.loader == Loader::python ? &cand_job : nullptr));
  }
  outcome.language = language.name;
  outcome.compile =
      CompileInfo{cand->ok, cand->cached, cand->seconds, cand->log, cand->command, cand->headers, cand->steps};
  outcome.static_findings = std::move(findings);
  if (auto inputs = resolve_inputs(problem, settings.size))
    outcome.quarantine = quarantine_reason(*inputs, outcome, settings.quarantine_speedup);
  apply_library_only(outcome, settings.library_only);
  if (outcome.status == Status::correct && outcome.timing && settings.backend == Backend::cuda) {
    const auto gpu = outcome.versions.find("gpu");
    const SpeedOfLight sol = speed_of_light(
        problem, settings.size, gpu != outcome.versions.end() && gpu->is_string() ? gpu->get<std::string>() : "");
    if (sol.bound_ms && outcome.timing->candidate.median_ms > 0)
      outcome.sol =
          SolFigures{*sol.bound_ms, *sol.bound_ms / outcome.timing->candidate.median_ms, sol.precision, sol.gpu};
    else
      outcome.sol_note = sol.note.empty() ? "the candidate's median time is 0" : sol.note;
  }
  outcome.phases_ms["compile"] = compile_ms - static_ms;
  outcome.phases_ms["static_checks"] = static_ms + preprocessed_ms;
  outcome.phases_ms["total"] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  redact(outcome, base::Redactor(settings.secrets));
  return outcome;
}

Result<Outcome> Evaluator::run_worker(const Problem& problem, const CompiledLibrary& reference,
                                      const CompiledLibrary& candidate, LanguageId candidate_language,
                                      const EvalSettings& settings, const CompileJob* build) {
  TRY_ASSIGN(std::vector<ResolvedInput> inputs, resolve_inputs(problem, settings.size));
  uint64_t master = settings.seed ? *settings.seed : (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  WorkerJob job = make_job(problem, settings, std::move(inputs), reference, candidate, candidate_language, master);
  // One worker at a time on each device where timings or a GPU are shared
  // (eval/device_pool.h); correctness-only checks on the cpu backend run side
  // by side, on no device of the pool.
  if (settings.backend == Backend::cpu && !settings.timing.enabled) {
    job.device = pool_.devices().empty() ? 0 : pool_.devices().front();
    TRY_ASSIGN(Outcome outcome, measure(problem, job, settings, build));
    note_precision(problem, settings, outcome);
    return outcome;
  }
  // The probe of a device after a suspect outcome: the reference against itself, alone.
  auto probe = [&](int device) -> base::Status {
    WorkerJob p = job;
    p.device = device;
    p.candidate_library = reference.library_path;
    p.candidate_digest = reference.digest;
    p.correctness_seeds.resize(1);
    p.timing.enabled = false;
    p.profile = ProfileOptions{};
    TRY_ASSIGN(Outcome o, launcher_.run(p));
    if (o.status != Status::correct)
      return Error{"probe of device " + std::to_string(device) + ": the reference against itself ended " +
                   to_string(o.status) + ": " + o.message};
    return {};
  };
  auto on = [&](int device) {
    WorkerJob j = job;
    j.device = device;
    return measure(problem, j, settings, build);
  };
  TRY_ASSIGN(PooledOutcome pooled, run_on_pool(pool_, problem.id, on, probe));
  Outcome outcome = std::move(pooled.outcome);
  outcome.device = pooled.device;
  outcome.devices_retired = std::move(pooled.retired);
  if (pooled.probes > 0) outcome.phases_ms["device_probe"] = pooled.probe_ms;
  note_precision(problem, settings, outcome);
  return outcome;
}

// One device's measurement of the job: the worker run, more runs while the
// timing is unsteady, and the ncu profile.
Result<Outcome> Evaluator::measure(const Problem& problem, const WorkerJob& job, const EvalSettings& settings,
                                   const CompileJob* build) {
  TRY_ASSIGN(Outcome outcome, launcher_.run(job));
  if (outcome.sandbox.is_object() && outcome.sandbox.value("refused", false))
    return Error{problem.id + ": " + outcome.message +
                 "; `refinery doctor` says which layers this machine refuses, and eval.allow_untrusted: true "
                 "runs without them"};
  // Unstable: a wide interval, or on cuda claims the judge's clock raised by
  // more than a tenth (a runner descheduled in most of its windows: measured
  // on a loaded H200, an honest 3.27 ms kernel was charged 7.06 ms, with a
  // narrow interval). A liar raised every time is measured again and stays
  // unstable, which leaves it out of fast_p for p > 0.
  auto unsteady = [&](const Outcome& o) {
    if (o.status != Status::correct || !o.timing) return false;
    const Timing& t = *o.timing;
    return t.uncertainty() > settings.max_uncertainty ||
           (settings.backend == Backend::cuda && !t.lower_bound && t.judge_raise_ms > 0.1 * t.claimed_median_ms);
  };
  int measurements = 1;
  for (int again = 0; again < settings.remeasure && unsteady(outcome); ++again) {
    TRY_ASSIGN(Outcome next, launcher_.run(job));
    ++measurements;
    if (next.status != Status::correct || !next.timing) {  // a failure outranks any timing
      outcome = std::move(next);
      break;
    }
    if (next.timing->uncertainty() < outcome.timing->uncertainty()) outcome = std::move(next);
  }
  outcome.mode = to_string(settings.mode);
  if (outcome.timing) {
    outcome.timing->measurements = measurements;
    outcome.timing->unstable = unsteady(outcome);
  }
  if (outcome.status == Status::correct && settings.hidden_shapes > 0 && problem.hidden.varies())
    TRY(check_hidden_shapes(problem, job, settings, build, outcome));
  if (outcome.status == Status::correct && settings.backend == Backend::cuda && settings.profile.tool == Profiler::ncu)
    outcome.profile = profile_with_ncu(job, settings);
  if (outcome.profile) {
    // The problem's declared work per call, for the roofline.
    const base::Dims* dims = problem.size(settings.size);
    if (dims && !problem.flops.empty())
      if (auto v = base::eval_int_expr(problem.flops, *dims)) outcome.profile->flops = static_cast<double>(*v);
    if (dims && !problem.bytes.empty())
      if (auto v = base::eval_int_expr(problem.bytes, *dims)) outcome.profile->bytes = static_cast<double>(*v);
  }
  return outcome;
}

// A candidate correct at the shown size, checked at hidden shapes: each a job
// of its own (its inputs resolved at the shape, the same seeds' correctness
// trials, no timing), on the same device. The shapes are drawn from a secret
// of this evaluation's own, never from the config's seed, so that no
// candidate can know them; the outcome records them after the verdict.
base::Status Evaluator::check_hidden_shapes(const Problem& problem, const WorkerJob& job, const EvalSettings& settings,
                                            const CompileJob* build, Outcome& outcome) {
  const uint64_t secret = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
  auto drawn = draw_hidden_shapes(problem, to_string(settings.size), settings.hidden_shapes, secret);
  if (!drawn) {  // no dim of its rules can move at this size: checked at the shown size only, and said so
    outcome.hidden_shapes.push_back({{"note", drawn.error().message}});
    return {};
  }
  const std::vector<base::Dims>& shapes = *drawn;
  const auto t0 = Clock::now();
  for (const auto& dims : shapes) {
    const std::string shape = describe_hidden_shape(problem, to_string(settings.size), dims);
    WorkerJob h = job;
    TRY_ASSIGN(h.inputs, resolve_inputs(problem, dims));
    apply_precision(h.inputs, precision_for(problem, settings.precision));
    if (settings.mode == Mode::kernelbench) kernelbench_draws(h.inputs);
    h.timing.enabled = false;
    h.profile = ProfileOptions{};
    if (h.correctness_seeds.size() > 2) h.correctness_seeds.resize(2);
    Outcome at;
    bool built = true;
    if (build) {
      // A Python build that ran the module (Triton compiles for the shapes it
      // is called on) runs it again at this shape; any other is the same
      // build, found in the cache.
      CompileJob again = *build;
      again.warm_inputs = warm_specs(h.inputs);
      TRY_ASSIGN(CompiledLibrary lib, compiler_.compile(again));
      h.candidate_library = lib.library_path;
      h.candidate_digest = lib.digest;
      built = lib.ok;
      if (!built) {
        at.status = lib.timed_out ? Status::timeout : Status::compile_error;
        at.message = "the module's build at this shape failed: " + log_tail(lib.log);
      }
    }
    if (built) {
      TRY_ASSIGN(at, launcher_.run(h));
    }
    nlohmann::json dims_json = nlohmann::json::object();
    for (const auto& [name, value] : dims) dims_json[name] = value;
    outcome.hidden_shapes.push_back(
        {{"shape", shape}, {"dims", dims_json}, {"status", to_string(at.status)}, {"message", at.message}});
    if (at.status == Status::correct) continue;
    outcome.status = Status::fails_hidden_shape;
    outcome.message =
        "correct at the shown size, but at hidden shape " + shape + ": " + to_string(at.status) + ": " + at.message;
    break;
  }
  outcome.phases_ms["hidden_shapes"] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return {};
}

profiler::Profile Evaluator::profile_with_ncu(const WorkerJob& timed_job, const EvalSettings& settings) {
  auto t0 = Clock::now();
  WorkerJob job = timed_job;
  job.profile = settings.profile;
  job.correctness_seeds.clear();
  job.timing.enabled = false;
  const std::string log = "ncu.csv";
  std::string csv;
  auto run = launcher_.run(job, profiler::ncu_arguments(settings.ncu_path, settings.profile.metrics, "{dir}/" + log),
                           log, &csv);
  profiler::Profile p;
  p.tool = "ncu";
  p.metrics = settings.profile.metrics;
  if (!run) {
    p.counters_note = "no profile: " + run.error().message;
  } else if (run->status != Status::correct) {
    p.counters_note = "no profile: ncu's run ended " + to_string(run->status) + ": " + run->message;
  } else if (auto parsed = profiler::parse_ncu_csv(csv, settings.profile.metrics); !parsed) {
    p.counters_note = "no profile: " + parsed.error().message;
  } else {
    p = std::move(parsed).value();
  }
  if (run && run->profile) p.device = run->profile->device;
  if (p.candidate.kernels.empty() && !p.reference.kernels.empty()) {
    // ncu follows the judge, not the runner it starts in a sandbox of its own.
    std::string note =
        "ncu profiles the judge's process only: the candidate runs in the sandboxed runner, "
        "out of ncu's reach, so only the reference's kernels are here (the cupti profiler has both)";
    p.counters_note = p.counters_note.empty() ? note : p.counters_note + "; " + note;
  }
  p.overhead_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return p;
}

Result<CompiledLibrary> Evaluator::compile_reference(const Problem& problem, const EvalSettings& settings) {
  TRY_ASSIGN(std::string source, base::read_file(problem.reference_path));
  return compiler_.compile({settings.backend, LanguageId::cxx, true, source, make_shim(problem), "reference"});
}

Result<std::vector<CompiledLibrary>> Evaluator::compile_references(const std::vector<Problem>& problems,
                                                                   const EvalSettings& settings) {
  std::vector<CompileJob> jobs;
  for (const auto& p : problems) {
    TRY_ASSIGN(std::string source, base::read_file(p.reference_path));
    jobs.push_back({settings.backend, LanguageId::cxx, true, source, make_shim(p), "reference"});
  }
  return compiler_.compile_batch(jobs);
}

Result<Outcome> Evaluator::evaluate_reference(const Problem& problem, const EvalSettings& settings,
                                              const CompiledLibrary* library) {
  auto t0 = Clock::now();
  CompiledLibrary ref;
  if (library) {
    ref = *library;
  } else {
    TRY_ASSIGN(ref, compile_reference(problem, settings));
  }
  double compile_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (!ref.ok) return Error{problem.id + ": the reference does not compile:\n" + ref.log};
  TRY_ASSIGN(Outcome outcome, run_worker(problem, ref, ref, LanguageId::cxx, settings));
  outcome.compile = CompileInfo{ref.ok, ref.cached, ref.seconds, ref.log, ref.command, ref.headers, ref.steps};
  outcome.phases_ms["compile"] = compile_ms;
  outcome.phases_ms["total"] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  redact(outcome, base::Redactor(settings.secrets));
  return outcome;
}

}  // namespace eval
