#include "eval/outcome.h"

#include <cmath>

namespace eval {
using nlohmann::json;

namespace {

// JSON has no NaN or Inf; a candidate's output does. They travel as strings.
json number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

double number_from(const json& j, const char* key, double fallback = 0) {
  if (!j.contains(key)) return fallback;
  const json& v = j[key];
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s == "nan") return std::nan("");
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
  }
  return fallback;
}

constexpr const char* kNames[] = {"compile_error", "load_error", "runtime_error",
                                  "timeout",       "crashed",    "wrong_shape",
                                  "mismatch",      "rejected",   "correct"};

json stats_json(const TimingStats& s) {
  return {{"trials", s.trials},   {"median_ms", s.median_ms}, {"mean_ms", s.mean_ms},
          {"stdev_ms", s.stdev_ms}, {"min_ms", s.min_ms},     {"max_ms", s.max_ms},
          {"p10_ms", s.p10_ms},   {"p90_ms", s.p90_ms},       {"host_median_ms", s.host_median_ms},
          {"spread", s.spread()}};
}

TimingStats stats_from(const json& j) {
  TimingStats s;
  s.trials = j.value("trials", 0);
  s.median_ms = j.value("median_ms", 0.0);
  s.mean_ms = j.value("mean_ms", 0.0);
  s.stdev_ms = j.value("stdev_ms", 0.0);
  s.min_ms = j.value("min_ms", 0.0);
  s.max_ms = j.value("max_ms", 0.0);
  s.p10_ms = j.value("p10_ms", 0.0);
  s.p90_ms = j.value("p90_ms", 0.0);
  s.host_median_ms = j.value("host_median_ms", 0.0);
  return s;
}
}  // namespace

std::string to_string(Status status) { return kNames[static_cast<int>(status)]; }

base::Result<Status> parse_status(const std::string& name) {
  for (int i = 0; i < 9; ++i)
    if (name == kNames[i]) return static_cast<Status>(i);
  return base::Error{"unknown status '" + name + "'"};
}

json to_json(const Outcome& o) {
  json j;
  j["status"] = to_string(o.status);
  j["message"] = o.message;
  if (o.compile)
    j["compile"] = {{"ok", o.compile->ok},         {"cached", o.compile->cached},
                    {"seconds", o.compile->seconds}, {"log", o.compile->log},
                    {"command", o.compile->command}};
  json trials = json::array();
  for (const auto& t : o.trials) {
    json first = json::array();
    for (const auto& m : t.first)
      first.push_back({{"index", m.index}, {"expected", number(m.expected)}, {"actual", number(m.actual)}});
    trials.push_back({{"trial", t.trial},         {"output", t.output},     {"max_abs", number(t.max_abs)},
                      {"max_rel", number(t.max_rel)}, {"mismatches", t.mismatches},
                      {"elements", t.elements},   {"nonfinite", t.nonfinite},
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
                   {"l2_flushed", o.timing->l2_flushed}};
  }
  j["output_shapes"] = o.output_shapes;
  if (o.signal) j["signal"] = o.signal;
  if (o.exit_code) j["exit_code"] = o.exit_code;
  if (!o.phase.empty()) j["phase"] = o.phase;
  if (!o.stdout_tail.empty()) j["stdout_tail"] = o.stdout_tail;
  if (!o.stderr_tail.empty()) j["stderr_tail"] = o.stderr_tail;
  j["versions"] = o.versions;
  j["phases_ms"] = o.phases_ms;
  j["network_isolated"] = o.network_isolated;
  return j;
}

base::Result<Outcome> outcome_from_json(const json& j) {
  try {
    Outcome o;
    auto status = parse_status(j.at("status").get<std::string>());
    if (!status) return status.error();
    o.status = *status;
    o.message = j.value("message", "");
    if (j.contains("compile")) {
      const auto& c = j["compile"];
      o.compile = CompileInfo{c.value("ok", false), c.value("cached", false),
                              c.value("seconds", 0.0), c.value("log", ""), c.value("command", "")};
    }
    for (const auto& t : j.value("trials", json::array())) {
      TrialDiff d;
      d.trial = t.value("trial", 0);
      d.output = t.value("output", 0);
      d.max_abs = number_from(t, "max_abs");
      d.max_rel = number_from(t, "max_rel");
      d.mismatches = t.value("mismatches", int64_t{0});
      d.elements = t.value("elements", int64_t{0});
      d.nonfinite = t.value("nonfinite", false);
      for (const auto& m : t.value("first_mismatches", json::array()))
        d.first.push_back({m.at("index").get<std::vector<int64_t>>(), number_from(m, "expected"),
                           number_from(m, "actual")});
      o.trials.push_back(std::move(d));
    }
    if (j.contains("profile")) {
      TRY_ASSIGN(Profile profile, profile_from_json(j["profile"]));
      o.profile = std::move(profile);
    }
    if (j.contains("timing")) {
      const auto& t = j["timing"];
      Timing timing;
      timing.reference = stats_from(t.at("reference"));
      timing.candidate = stats_from(t.at("candidate"));
      timing.speedup = t.value("speedup", 0.0);
      timing.clock = t.value("clock", "");
      timing.device_wide = t.value("device_wide", false);
      timing.l2_flushed = t.value("l2_flushed", false);
      o.timing = timing;
    }
    o.output_shapes = j.value("output_shapes", std::vector<std::string>{});
    o.signal = j.value("signal", 0);
    o.exit_code = j.value("exit_code", 0);
    o.phase = j.value("phase", "");
    o.stdout_tail = j.value("stdout_tail", "");
    o.stderr_tail = j.value("stderr_tail", "");
    o.versions = j.value("versions", json::object());
    o.phases_ms = j.value("phases_ms", json::object());
    o.network_isolated = j.value("network_isolated", false);
    return o;
  } catch (const json::exception& e) {
    return base::Error{std::string("malformed result: ") + e.what()};
  }
}

json summary_json(const Outcome& o) {
  json j;
  j["status"] = to_string(o.status);
  bool timed = o.status == Status::correct && o.timing;
  j["speedup"] = timed ? json(o.timing->speedup) : json(nullptr);
  j["candidate_ms"] = o.timing ? json(o.timing->candidate.median_ms) : json(nullptr);
  j["reference_ms"] = o.timing ? json(o.timing->reference.median_ms) : json(nullptr);
  j["message"] = o.message;
  json details = to_json(o);
  for (auto it = details.begin(); it != details.end(); ++it)
    if (!j.contains(it.key())) j[it.key()] = it.value();
  return j;
}

}  // namespace eval
