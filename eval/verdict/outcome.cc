#include "eval/verdict/outcome.h"

#include "eval/job.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

namespace eval {
using nlohmann::json;

namespace {

// JSON has no NaN or Inf; a candidate's output does. They travel as strings.
json number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

constexpr const char* kNames[] = {
    "compile_error", "load_error", "runtime_error",      "timeout", "crashed", "wrong_shape",
    "mismatch",      "rejected",   "fails_hidden_shape", "correct"};
static_assert(std::size(kNames) == static_cast<size_t>(Status::correct) + 1, "one name per Status, in its order");

json stats_json(const TimingStats& s) {
  return {{"trials", s.trials},
          {"median_ms", s.median_ms},
          {"mean_ms", s.mean_ms},
          {"stdev_ms", s.stdev_ms},
          {"min_ms", s.min_ms},
          {"max_ms", s.max_ms},
          {"p10_ms", s.p10_ms},
          {"p90_ms", s.p90_ms},
          {"host_median_ms", s.host_median_ms},
          {"median_low_ms", s.median_low_ms},
          {"median_high_ms", s.median_high_ms},
          {"spread", s.spread()},
          {"median_uncertainty", s.median_uncertainty()}};
}

// Decoding what a worker wrote. A hostile candidate may have written it, so
// every member is checked for its type and a plausible range, and an error
// names the member by its path ("timing.candidate.median_ms").

constexpr size_t kMaxText = 64 << 10;       // bytes of any one string
constexpr size_t kMaxLog = 1 << 20;         // the compile log: the compiler's two capped streams
constexpr size_t kMaxTrials = 10000;        // correctness trial records
constexpr size_t kMaxFirstMismatches = 64;  // per trial record
constexpr size_t kMaxRank = 64;             // dimensions of a mismatch's index
constexpr size_t kMaxOutputs = 1024;        // output shapes
constexpr size_t kMaxMembers = 256;         // members of versions and phases_ms
constexpr size_t kMaxTraceBytes = 4 << 20;  // timing.trace, as JSON text
constexpr size_t kMaxName = 128;            // bytes of a member name there
constexpr int64_t kMaxTimedTrials = 10000000;
constexpr double kMaxMs = 1e9;  // about 11 days
constexpr double kMaxSpeedup = 1e9;

std::string fmt_g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

base::Error malformed(const std::string& path, const std::string& what) {
  return base::Error{"malformed result: " + path + " " + what};
}

// A member of an object, or nullptr when it is absent.
const json* member(const json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

base::Status as_object(const json& v, const std::string& path) {
  if (!v.is_object()) return malformed(path, "is not an object");
  return {};
}

base::Status as_array(const json& v, const std::string& path, size_t max_size) {
  if (!v.is_array()) return malformed(path, "is not an array");
  if (v.size() > max_size) return malformed(path, "has more than " + std::to_string(max_size) + " entries");
  return {};
}

base::Status as_text(const json& v, const std::string& path, size_t max_bytes, std::string& out) {
  if (!v.is_string()) return malformed(path, "is not a string");
  const auto& s = v.get_ref<const std::string&>();
  if (s.size() > max_bytes) return malformed(path, "is longer than " + std::to_string(max_bytes) + " bytes");
  out = s;
  return {};
}

base::Status as_flag(const json& v, const std::string& path, bool& out) {
  if (!v.is_boolean()) return malformed(path, "is not a boolean");
  out = v.get<bool>();
  return {};
}

template <class Int>
base::Status as_integer(const json& v, const std::string& path, int64_t lo, int64_t hi, Int& out) {
  std::optional<int64_t> n;
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX)) n = static_cast<int64_t>(v.get<uint64_t>());
  } else if (v.is_number_integer()) {
    n = v.get<int64_t>();
  }
  if (!n || *n < lo || *n > hi)
    return malformed(path, "is not an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  out = static_cast<Int>(*n);
  return {};
}

// A time, a count of bytes or a ratio: finite, not negative, at most max.
base::Status as_amount(const json& v, const std::string& path, double max, double& out) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
    return malformed(path, "is not a finite non-negative number");
  if (v.get<double>() > max) return malformed(path, "is more than " + fmt_g(max));
  out = v.get<double>();
  return {};
}

// A value from a candidate's output: a number, or "nan", "inf" or "-inf".
base::Status as_value(const json& v, const std::string& path, double& out) {
  if (v.is_number()) {
    out = v.get<double>();
    return {};
  }
  if (v == "nan")
    out = std::nan("");
  else if (v == "inf")
    out = INFINITY;
  else if (v == "-inf")
    out = -INFINITY;
  else
    return malformed(path, "is not a number, \"nan\", \"inf\" or \"-inf\"");
  return {};
}

base::Status read_status(const json& j, Outcome& o) {
  const json* v = member(j, "status");
  if (!v) return malformed("status", "is missing");
  if (!v->is_string()) return malformed("status", "is not a string");
  const auto& name = v->get_ref<const std::string&>();
  auto status = parse_status(name);
  if (!status) return malformed("status", "'" + name.substr(0, 40) + (name.size() > 40 ? "...'" : "'") + " is unknown");
  o.status = *status;
  return {};
}

base::Status read_kernels(const json& j, Outcome& o) {
  TRY(as_object(j, "kernels"));
  KernelEvidence k;
  if (auto* v = member(j, "watched")) TRY(as_flag(*v, "kernels.watched", k.watched));
  if (auto* v = member(j, "note")) TRY(as_text(*v, "kernels.note", kMaxText, k.note));
  if (auto* v = member(j, "top_other")) TRY(as_text(*v, "kernels.top_other", kMaxText, k.top_other));
  constexpr int64_t kMaxCount = int64_t{1} << 50;
  for (auto [name, field] :
       {std::pair{"own_launches", &k.own_launches}, std::pair{"other_launches", &k.other_launches},
        std::pair{"timed_own", &k.timed_own}, std::pair{"timed_other", &k.timed_other},
        std::pair{"timed_graphs", &k.timed_graphs}, std::pair{"streams_created", &k.streams_created},
        std::pair{"threads_left", &k.threads_left}})
    if (auto* v = member(j, name)) TRY(as_integer(*v, std::string("kernels.") + name, 0, kMaxCount, *field));
  for (auto [name, field] : {std::pair{"own_us", &k.own_us}, std::pair{"other_us", &k.other_us}})
    if (auto* v = member(j, name)) TRY(as_amount(*v, std::string("kernels.") + name, kMaxMs * 1000, *field));
  o.kernels = std::move(k);
  return {};
}

base::Status read_compile(const json& j, CompileInfo& c) {
  TRY(as_object(j, "compile"));
  if (auto* v = member(j, "ok")) TRY(as_flag(*v, "compile.ok", c.ok));
  if (auto* v = member(j, "cached")) TRY(as_flag(*v, "compile.cached", c.cached));
  if (auto* v = member(j, "seconds")) TRY(as_amount(*v, "compile.seconds", kMaxMs / 1000, c.seconds));
  if (auto* v = member(j, "log")) TRY(as_text(*v, "compile.log", kMaxLog, c.log));
  if (auto* v = member(j, "command")) TRY(as_text(*v, "compile.command", kMaxText, c.command));
  if (auto* v = member(j, "headers")) TRY(as_text(*v, "compile.headers", kMaxText, c.headers));
  if (auto* v = member(j, "steps")) {
    TRY(as_object(*v, "compile.steps"));
    if (v->size() > 16) return malformed("compile.steps", "has more than 16 steps");
    for (const auto& [name, seconds] : v->items()) {
      double s = 0;
      TRY(as_amount(seconds, "compile.steps." + name.substr(0, 40), kMaxMs / 1000, s));
      c.steps.emplace_back(name.substr(0, 64), s);
    }
  }
  return {};
}

base::Status read_trial(const json& j, const std::string& path, TrialDiff& d) {
  TRY(as_object(j, path));
  if (auto* v = member(j, "trial")) TRY(as_integer(*v, path + ".trial", 0, kMaxTrials, d.trial));
  if (auto* v = member(j, "output")) TRY(as_integer(*v, path + ".output", 0, kMaxOutputs, d.output));
  for (auto [key, out] : {std::pair{"max_abs", &d.max_abs}, std::pair{"max_rel", &d.max_rel}}) {
    if (auto* v = member(j, key)) TRY(as_value(*v, path + "." + key, *out));
    if (*out < 0) return malformed(path + "." + key, "is negative");
  }
  if (auto* v = member(j, "mismatches")) TRY(as_integer(*v, path + ".mismatches", 0, INT64_MAX, d.mismatches));
  if (auto* v = member(j, "elements")) TRY(as_integer(*v, path + ".elements", 0, INT64_MAX, d.elements));
  if (d.mismatches > d.elements) return malformed(path + ".mismatches", "is more than " + path + ".elements");
  if (auto* v = member(j, "nonfinite")) TRY(as_flag(*v, path + ".nonfinite", d.nonfinite));
  const json* first = member(j, "first_mismatches");
  if (!first) return {};
  TRY(as_array(*first, path + ".first_mismatches", kMaxFirstMismatches));
  d.first.resize(first->size());
  for (size_t i = 0; i < first->size(); ++i) {
    const std::string at = path + ".first_mismatches[" + std::to_string(i) + "]";
    const json& m = (*first)[i];
    TRY(as_object(m, at));
    const json* index = member(m, "index");
    if (!index) return malformed(at + ".index", "is missing");
    TRY(as_array(*index, at + ".index", kMaxRank));
    d.first[i].index.resize(index->size());
    for (size_t k = 0; k < index->size(); ++k)
      TRY(as_integer((*index)[k], at + ".index[" + std::to_string(k) + "]", 0, INT64_MAX, d.first[i].index[k]));
    if (auto* v = member(m, "expected")) TRY(as_value(*v, at + ".expected", d.first[i].expected));
    if (auto* v = member(m, "actual")) TRY(as_value(*v, at + ".actual", d.first[i].actual));
  }
  return {};
}

base::Status read_stats(const json& j, const std::string& path, TimingStats& s) {
  TRY(as_object(j, path));
  if (auto* v = member(j, "trials")) TRY(as_integer(*v, path + ".trials", 0, kMaxTimedTrials, s.trials));
  for (auto [key, out] :
       {std::pair{"median_ms", &s.median_ms}, std::pair{"mean_ms", &s.mean_ms}, std::pair{"stdev_ms", &s.stdev_ms},
        std::pair{"min_ms", &s.min_ms}, std::pair{"max_ms", &s.max_ms}, std::pair{"p10_ms", &s.p10_ms},
        std::pair{"p90_ms", &s.p90_ms}, std::pair{"host_median_ms", &s.host_median_ms},
        std::pair{"median_low_ms", &s.median_low_ms}, std::pair{"median_high_ms", &s.median_high_ms}})
    if (auto* v = member(j, key)) TRY(as_amount(*v, path + "." + key, kMaxMs, *out));
  return {};  // "spread" and "median_uncertainty" are derived, and not read back
}

base::Status read_timing(const json& j, Timing& t) {
  TRY(as_object(j, "timing"));
  for (auto [key, out] : {std::pair{"reference", &t.reference}, std::pair{"candidate", &t.candidate}}) {
    const json* v = member(j, key);
    if (!v) return malformed(std::string("timing.") + key, "is missing");
    TRY(read_stats(*v, std::string("timing.") + key, *out));
  }
  if (auto* v = member(j, "speedup")) TRY(as_amount(*v, "timing.speedup", kMaxSpeedup, t.speedup));
  if (auto* v = member(j, "clock")) TRY(as_text(*v, "timing.clock", kMaxText, t.clock));
  if (auto* v = member(j, "device_wide")) TRY(as_flag(*v, "timing.device_wide", t.device_wide));
  if (auto* v = member(j, "l2_flushed")) TRY(as_flag(*v, "timing.l2_flushed", t.l2_flushed));
  if (auto* v = member(j, "claimed_median_ms"))
    TRY(as_amount(*v, "timing.claimed_median_ms", kMaxMs, t.claimed_median_ms));
  if (auto* v = member(j, "judge_overhead_ms"))
    TRY(as_amount(*v, "timing.judge_overhead_ms", kMaxMs, t.judge_overhead_ms));
  if (auto* v = member(j, "judge_slack_ms")) TRY(as_amount(*v, "timing.judge_slack_ms", kMaxMs, t.judge_slack_ms));
  if (auto* v = member(j, "floor_median_ms")) TRY(as_amount(*v, "timing.floor_median_ms", kMaxMs, t.floor_median_ms));
  if (auto* v = member(j, "judge_raise_ms")) TRY(as_amount(*v, "timing.judge_raise_ms", kMaxMs, t.judge_raise_ms));
  if (auto* v = member(j, "trace")) {
    TRY(as_object(*v, "timing.trace"));
    if (v->dump().size() > kMaxTraceBytes)
      return malformed("timing.trace", "is larger than " + std::to_string(kMaxTraceBytes) + " bytes");
    t.trace = *v;
  }
  if (auto* v = member(j, "contradicted")) TRY(as_integer(*v, "timing.contradicted", 0, 2, t.contradicted));
  if (auto* v = member(j, "floored_calls"))
    TRY(as_integer(*v, "timing.floored_calls", 0, kMaxTimedTrials, t.floored_calls));
  if (auto* v = member(j, "checked_calls"))
    TRY(as_integer(*v, "timing.checked_calls", 0, kMaxTimedTrials, t.checked_calls));
  if (auto* v = member(j, "batch_calls")) TRY(as_integer(*v, "timing.batch_calls", 1, 1 << 20, t.batch_calls));
  if (auto* v = member(j, "measurements")) TRY(as_integer(*v, "timing.measurements", 1, 100, t.measurements));
  if (auto* v = member(j, "unstable")) TRY(as_flag(*v, "timing.unstable", t.unstable));
  if (auto* v = member(j, "lower_bound")) TRY(as_flag(*v, "timing.lower_bound", t.lower_bound));
  // The worker's rule (eval/worker/timing.cc): reference median / candidate median, or 0.
  const double expected = t.candidate.median_ms > 0 ? t.reference.median_ms / t.candidate.median_ms : 0;
  if (!(std::abs(t.speedup - expected) <= 1e-6 * expected))
    return malformed("timing.speedup", "is not timing.reference.median_ms / timing.candidate.median_ms");
  return {};
}

// A correct verdict needs its evidence: timing with both medians measured,
// unless timing was turned off for the job.
base::Status check_verdict(const Outcome& o) {
  if (o.status != Status::correct) return {};
  if (!o.timing) {
    if (o.message == kTimingDisabledMessage || o.message == kProfiledMessage) return {};
    return malformed("timing", "is missing from a correct result");
  }
  if (!(o.timing->reference.median_ms > 0)) return malformed("timing.reference.median_ms", "is not positive");
  if (!(o.timing->candidate.median_ms > 0)) return malformed("timing.candidate.median_ms", "is not positive");
  return {};
}

base::Status check_members(const json& j, const std::string& path) {
  TRY(as_object(j, path));
  if (j.size() > kMaxMembers) return malformed(path, "has more than " + std::to_string(kMaxMembers) + " members");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key().size() > kMaxName)
      return malformed(path, "has a member name longer than " + std::to_string(kMaxName) + " bytes");
  return {};
}

// Version strings and numbers the worker read from its libraries and device.
base::Status read_versions(const json& j, json& out) {
  TRY(check_members(j, "versions"));
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string path = "versions." + it.key();
    if (it->is_string()) {
      std::string ignored;
      TRY(as_text(*it, path, kMaxText, ignored));
    } else if (!it->is_number() && !it->is_boolean()) {
      return malformed(path, "is not a string, a number or a boolean");
    }
  }
  out = j;
  return {};
}

// Milliseconds per phase.
base::Status read_phases(const json& j, json& out) {
  TRY(check_members(j, "phases_ms"));
  double ignored;
  for (auto it = j.begin(); it != j.end(); ++it) TRY(as_amount(*it, "phases_ms." + it.key(), kMaxMs, ignored));
  out = j;
  return {};
}
}  // namespace

std::string to_string(Status status) {
  return kNames[static_cast<int>(status)];
}

base::Result<Status> parse_status(const std::string& name) {
  for (size_t i = 0; i < std::size(kNames); ++i)
    if (name == kNames[i]) return static_cast<Status>(i);
  return base::Error{"unknown status '" + name + "'"};
}

std::optional<LibraryOnly> parse_library_only(const std::string& name) {
  if (name == "count") return LibraryOnly::count;
  if (name == "correct") return LibraryOnly::correct;
  if (name == "reject") return LibraryOnly::reject;
  return std::nullopt;
}

json to_json(const Outcome& o) {
  json j;
  j["status"] = to_string(o.status);
  j["message"] = o.message;
  if (o.compile)
    j["compile"] = {{"ok", o.compile->ok},   {"cached", o.compile->cached},   {"seconds", o.compile->seconds},
                    {"log", o.compile->log}, {"command", o.compile->command}, {"headers", o.compile->headers}};
  if (o.compile && !o.compile->steps.empty()) {
    json steps = json::object();
    for (const auto& [name, seconds] : o.compile->steps) steps[name] = steps.value(name, 0.0) + seconds;
    j["compile"]["steps"] = steps;
  }
  json trials = json::array();
  for (const auto& t : o.trials) {
    json first = json::array();
    for (const auto& m : t.first)
      first.push_back({{"index", m.index}, {"expected", number(m.expected)}, {"actual", number(m.actual)}});
    trials.push_back({{"trial", t.trial},
                      {"output", t.output},
                      {"max_abs", number(t.max_abs)},
                      {"max_rel", number(t.max_rel)},
                      {"mismatches", t.mismatches},
                      {"elements", t.elements},
                      {"nonfinite", t.nonfinite},
                      {"first_mismatches", first}});
  }
  j["trials"] = trials;
  if (o.profile) j["profile"] = to_json(*o.profile);
  if (o.timing) {
    j["timing"] = {{"reference", stats_json(o.timing->reference)},
                   {"candidate", stats_json(o.timing->candidate)},
                   {"speedup", o.timing->speedup},
                   {"clock", o.timing->clock},
                   {"device_wide", o.timing->device_wide},
                   {"l2_flushed", o.timing->l2_flushed},
                   {"claimed_median_ms", o.timing->claimed_median_ms},
                   {"judge_overhead_ms", o.timing->judge_overhead_ms},
                   {"judge_slack_ms", o.timing->judge_slack_ms},
                   {"floor_median_ms", o.timing->floor_median_ms},
                   {"judge_raise_ms", o.timing->judge_raise_ms},
                   {"contradicted", o.timing->contradicted},
                   {"floored_calls", o.timing->floored_calls},
                   {"checked_calls", o.timing->checked_calls},
                   {"batch_calls", o.timing->batch_calls},
                   {"uncertainty", o.timing->uncertainty()},
                   {"measurements", o.timing->measurements},
                   {"unstable", o.timing->unstable},
                   {"lower_bound", o.timing->lower_bound}};
    if (!o.timing->trace.is_null()) j["timing"]["trace"] = o.timing->trace;
  }
  j["output_shapes"] = o.output_shapes;
  if (o.signal) j["signal"] = o.signal;
  if (o.exit_code) j["exit_code"] = o.exit_code;
  if (!o.phase.empty()) j["phase"] = o.phase;
  if (!o.mode.empty()) j["mode"] = o.mode;
  if (!o.language.empty()) j["language"] = o.language;
  if (!o.precision.empty()) j["precision"] = o.precision;
  if (!o.precision_note.empty()) j["precision_note"] = o.precision_note;
  if (!o.entropy.empty()) j["entropy"] = o.entropy;
  if (!o.stdout_tail.empty()) j["stdout_tail"] = o.stdout_tail;
  if (!o.stderr_tail.empty()) j["stderr_tail"] = o.stderr_tail;
  j["versions"] = o.versions;
  j["phases_ms"] = o.phases_ms;
  j["network_isolated"] = o.network_isolated;
  j["sandbox"] = o.sandbox;
  j["trusted"] = o.trusted;
  if (o.runner_standby) j["runner_standby"] = true;
  if (!o.static_findings.empty()) {
    json findings = json::array();
    for (const Finding& f : o.static_findings)
      findings.push_back({{"rule", to_string(f.rule)},
                          {"action", to_string(f.action)},
                          {"line", f.line},
                          {"what", f.what},
                          {"why", f.why}});
    j["static_findings"] = findings;
  }
  if (!o.quarantine.empty()) j["quarantine"] = o.quarantine;
  if (o.kernels) {
    const KernelEvidence& k = *o.kernels;
    json kj = {{"watched", k.watched}};
    if (!k.note.empty()) kj["note"] = k.note;
    if (k.watched) {
      kj.update({{"own_launches", k.own_launches},
                 {"other_launches", k.other_launches},
                 {"timed_own", k.timed_own},
                 {"timed_other", k.timed_other},
                 {"timed_graphs", k.timed_graphs},
                 {"own_us", k.own_us},
                 {"other_us", k.other_us},
                 {"streams_created", k.streams_created},
                 {"threads_left", k.threads_left},
                 {"library_only", k.library_only()}});
      if (k.own_share() >= 0) kj["own_share"] = k.own_share();
      if (!k.top_other.empty()) kj["top_other"] = k.top_other;
    }
    j["kernels"] = kj;
  }
  if (o.library_only) j["library_only"] = true;
  if (o.sol)
    j["speed_of_light"] = {{"bound_ms", o.sol->bound_ms},
                           {"fraction", o.sol->fraction},
                           {"precision", o.sol->precision},
                           {"gpu", o.sol->gpu}};
  else if (!o.sol_note.empty())
    j["speed_of_light"] = {{"note", o.sol_note}};
  if (!o.hidden_shapes.empty()) j["hidden_shapes"] = o.hidden_shapes;
  if (o.device >= 0) j["device"] = o.device;
  if (!o.devices_retired.empty()) {
    json retired = json::array();
    for (const auto& r : o.devices_retired)
      retired.push_back({{"device", r.device}, {"reason", r.reason}, {"during", r.during}});
    j["devices_retired"] = retired;
  }
  return j;
}

base::Result<Outcome> outcome_from_json(const json& j) {
  if (!j.is_object()) return base::Error{"malformed result: not a JSON object"};
  try {
    Outcome o;
    TRY(read_status(j, o));
    if (auto* v = member(j, "message")) TRY(as_text(*v, "message", kMaxText, o.message));
    if (auto* v = member(j, "compile")) {
      CompileInfo c;
      TRY(read_compile(*v, c));
      o.compile = std::move(c);
    }
    if (auto* v = member(j, "trials")) {
      TRY(as_array(*v, "trials", kMaxTrials));
      o.trials.resize(v->size());
      for (size_t i = 0; i < v->size(); ++i) TRY(read_trial((*v)[i], "trials[" + std::to_string(i) + "]", o.trials[i]));
    }
    if (auto* v = member(j, "profile")) {
      TRY(as_object(*v, "profile"));
      TRY_ASSIGN(profiler::Profile profile, profiler::profile_from_json(*v));
      o.profile = std::move(profile);
    }
    if (auto* v = member(j, "timing")) {
      Timing t;
      TRY(read_timing(*v, t));
      o.timing = std::move(t);
    }
    TRY(check_verdict(o));
    if (auto* v = member(j, "output_shapes")) {
      TRY(as_array(*v, "output_shapes", kMaxOutputs));
      o.output_shapes.resize(v->size());
      for (size_t i = 0; i < v->size(); ++i)
        TRY(as_text((*v)[i], "output_shapes[" + std::to_string(i) + "]", kMaxText, o.output_shapes[i]));
    }
    if (auto* v = member(j, "signal")) TRY(as_integer(*v, "signal", 0, 127, o.signal));
    if (auto* v = member(j, "exit_code")) TRY(as_integer(*v, "exit_code", INT32_MIN, INT32_MAX, o.exit_code));
    if (auto* v = member(j, "phase")) TRY(as_text(*v, "phase", kMaxText, o.phase));
    if (auto* v = member(j, "mode")) TRY(as_text(*v, "mode", kMaxText, o.mode));
    if (auto* v = member(j, "language")) TRY(as_text(*v, "language", kMaxText, o.language));
    if (auto* v = member(j, "precision")) TRY(as_text(*v, "precision", kMaxText, o.precision));
    if (auto* v = member(j, "precision_note")) TRY(as_text(*v, "precision_note", kMaxText, o.precision_note));
    if (auto* v = member(j, "entropy")) {
      TRY(as_text(*v, "entropy", 32, o.entropy));
      if (!is_entropy(o.entropy)) return malformed("entropy", "is not 32 hex digits");
    }
    if (auto* v = member(j, "stdout_tail")) TRY(as_text(*v, "stdout_tail", kMaxText, o.stdout_tail));
    if (auto* v = member(j, "stderr_tail")) TRY(as_text(*v, "stderr_tail", kMaxText, o.stderr_tail));
    if (auto* v = member(j, "versions")) TRY(read_versions(*v, o.versions));
    if (auto* v = member(j, "phases_ms")) TRY(read_phases(*v, o.phases_ms));
    if (auto* v = member(j, "network_isolated")) TRY(as_flag(*v, "network_isolated", o.network_isolated));
    if (auto* v = member(j, "sandbox")) {
      TRY(check_members(*v, "sandbox"));
      o.sandbox = *v;
    }
    if (auto* v = member(j, "trusted")) TRY(as_flag(*v, "trusted", o.trusted));
    if (auto* v = member(j, "runner_standby")) TRY(as_flag(*v, "runner_standby", o.runner_standby));
    if (auto* v = member(j, "static_findings")) {
      TRY(as_array(*v, "static_findings", kMaxOutputs));
      for (size_t i = 0; i < v->size(); ++i) {
        const std::string where = "static_findings[" + std::to_string(i) + "]";
        TRY(as_object((*v)[i], where));
        Finding f{};
        std::string rule, action;
        if (auto* r = member((*v)[i], "rule")) TRY(as_text(*r, where + ".rule", kMaxText, rule));
        if (auto* a = member((*v)[i], "action")) TRY(as_text(*a, where + ".action", kMaxText, action));
        auto parsed_rule = parse_rule(rule);
        auto parsed_action = parse_rule_action(action);
        if (!parsed_rule || !parsed_action)
          return base::Error{"malformed result: " + where + " names no rule and action"};
        f.rule = *parsed_rule;
        f.action = *parsed_action;
        if (auto* l = member((*v)[i], "line")) TRY(as_integer(*l, where + ".line", 0, INT32_MAX, f.line));
        if (auto* w = member((*v)[i], "what")) TRY(as_text(*w, where + ".what", kMaxText, f.what));
        if (auto* w = member((*v)[i], "why")) TRY(as_text(*w, where + ".why", kMaxText, f.why));
        o.static_findings.push_back(std::move(f));
      }
    }
    if (auto* v = member(j, "quarantine")) TRY(as_text(*v, "quarantine", kMaxText, o.quarantine));
    if (auto* v = member(j, "kernels")) TRY(read_kernels(*v, o));
    if (auto* v = member(j, "library_only")) TRY(as_flag(*v, "library_only", o.library_only));
    if (auto* v = member(j, "device")) TRY(as_integer(*v, "device", -1, 4096, o.device));
    if (auto* v = member(j, "devices_retired")) {
      TRY(as_array(*v, "devices_retired", kMaxOutputs));
      for (size_t i = 0; i < v->size(); ++i) {
        const std::string where = "devices_retired[" + std::to_string(i) + "]";
        TRY(as_object((*v)[i], where));
        RetiredDevice r;
        if (auto* d = member((*v)[i], "device")) TRY(as_integer(*d, where + ".device", 0, 4096, r.device));
        if (auto* w = member((*v)[i], "reason")) TRY(as_text(*w, where + ".reason", kMaxText, r.reason));
        if (auto* w = member((*v)[i], "during")) TRY(as_text(*w, where + ".during", kMaxText, r.during));
        o.devices_retired.push_back(std::move(r));
      }
    }
    return o;
  } catch (const std::exception& e) {  // a backstop: every check above is meant to come first
    return base::Error{std::string("malformed result: ") + e.what()};
  }
}

}  // namespace eval
