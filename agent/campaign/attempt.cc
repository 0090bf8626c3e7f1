#include "agent/campaign/attempt.h"

#include "agent/campaign/json_fields.h"

namespace agent {
using base::Error;
using base::Status;
using json_fields::read;
using nlohmann::json;

std::string AttemptKey::str() const {
  return model + "/" + strategy + "/" + problem + "/s" + std::to_string(sample) + "/t" + std::to_string(turn);
}

namespace {

// The one table of status names, in AttemptStatus's order.
constexpr const char* kStatusNames[] = {
    "compile_error", "load_error", "runtime_error",      "timeout", "crashed", "wrong_shape",
    "mismatch",      "rejected",   "fails_hidden_shape", "correct", "no_code", "truncated"};
constexpr int kStatuses = static_cast<int>(AttemptStatus::truncated) + 1;
static_assert(std::size(kStatusNames) == kStatuses);

json optional_number(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

}  // namespace

AttemptStatus attempt_status(eval::Status status) {
  switch (status) {
    case eval::Status::compile_error:
      return AttemptStatus::compile_error;
    case eval::Status::load_error:
      return AttemptStatus::load_error;
    case eval::Status::runtime_error:
      return AttemptStatus::runtime_error;
    case eval::Status::timeout:
      return AttemptStatus::timeout;
    case eval::Status::crashed:
      return AttemptStatus::crashed;
    case eval::Status::wrong_shape:
      return AttemptStatus::wrong_shape;
    case eval::Status::mismatch:
      return AttemptStatus::mismatch;
    case eval::Status::rejected:
      return AttemptStatus::rejected;
    case eval::Status::fails_hidden_shape:
      return AttemptStatus::fails_hidden_shape;
    case eval::Status::correct:
      return AttemptStatus::correct;
  }
  return AttemptStatus::crashed;  // not reached: every eval::Status is above
}

std::string to_string(AttemptStatus status) {
  return kStatusNames[static_cast<int>(status)];
}

base::Result<AttemptStatus> parse_attempt_status(const std::string& name) {
  for (int i = 0; i < kStatuses; ++i)
    if (name == kStatusNames[i]) return static_cast<AttemptStatus>(i);
  return Error{"status '" + name + "' is unknown"};
}

std::string Attempt::env(const std::string& key) const {
  auto it = environment.find(key);
  if (it == environment.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  return it->is_number() ? it->dump() : "";
}

Attempt Attempt::summary() const {
  Attempt s = *this;
  s.response_text.clear();
  s.feedback.clear();
  return s;
}

void Attempt::take(const eval::Outcome& o) {
  evaluated = true;
  mode = o.mode;
  language = o.language;
  precision = o.precision;
  status = attempt_status(o.status);
  message = o.message;
  // As eval::summary_json (refinery eval --json) gives them: a speedup only
  // when correct and timed, the medians whenever there was a timing.
  const bool timed = o.status == eval::Status::correct && o.timing;
  speedup = timed ? std::optional(o.timing->speedup) : std::nullopt;
  candidate_ms = o.timing ? std::optional(o.timing->candidate.median_ms) : std::nullopt;
  reference_ms = o.timing ? std::optional(o.timing->reference.median_ms) : std::nullopt;
  unstable = timed && o.timing->unstable;
  quarantine = o.quarantine;
  library_only = o.library_only;
  device = o.device >= 0 ? std::optional(o.device) : std::nullopt;
  sol_fraction = o.sol ? std::optional(o.sol->fraction) : std::nullopt;
  hidden_shapes = 0;  // the shapes checked; a note (no dim could move at this size) is none
  for (const auto& h : o.hidden_shapes) hidden_shapes += h.contains("status");
  const auto wall = o.phases_ms.find("worker_wall");
  worker_s = wall != o.phases_ms.end() && wall->is_number() ? wall->get<double>() / 1000 : 0;
  // What a reader of results needs to say where a number came from; the rest
  // of the judge's versions stay in result.json.
  environment = json::object();
  for (const char* k : {"gpu", "cuda_driver", "cuda_runtime", "libtorch", "refinery", "sm_clock_max_mhz",
                        "memory_clock_max_mhz", "compute_capability", "cpu", "cpu_threads", "device"})
    if (auto it = o.versions.find(k); it != o.versions.end() && (it->is_string() || it->is_number()))
      environment[k] = *it;
  devices_retired.clear();
  for (const auto& r : o.devices_retired) devices_retired.push_back({r.device, r.reason});
}

json to_json(const Usage& u) {
  json j = {{"input_tokens", u.input_tokens},
            {"cached_input_tokens", u.cached_input_tokens},
            {"output_tokens", u.output_tokens},
            {"reasoning_tokens", u.reasoning_tokens}};
  if (!u.invalid.empty()) j["invalid"] = u.invalid;
  return j;
}

Status read_usage(const json& u, Usage& usage) {
  if (!u.is_object()) return Error{"usage is not an object"};
  TRY(read(u, "input_tokens", usage.input_tokens));
  TRY(read(u, "cached_input_tokens", usage.cached_input_tokens));
  TRY(read(u, "output_tokens", usage.output_tokens));
  TRY(read(u, "reasoning_tokens", usage.reasoning_tokens));
  TRY(read(u, "invalid", usage.invalid));
  return {};
}

json to_json(const Attempt& a) {
  json j = {{"key", a.key.str()},
            {"model", a.key.model},
            {"strategy", a.key.strategy},
            {"problem", a.key.problem},
            {"sample", a.key.sample},
            {"turn", a.key.turn},
            {"status", to_string(a.status)},
            {"message", a.message},
            {"usage", to_json(a.usage)},
            {"cost_usd", a.cost_usd},
            {"response_text", a.response_text},
            {"feedback", a.feedback}};
  if (a.key.parent) j["parent"] = {{"sample", a.key.parent->sample}, {"turn", a.key.parent->turn}};
  if (a.evaluated) {
    j["backend"] = a.backend;
    if (!a.mode.empty()) j["mode"] = a.mode;
    if (!a.language.empty()) j["language"] = a.language;
    if (!a.precision.empty()) j["precision"] = a.precision;
    j["speedup"] = optional_number(a.speedup);
    j["candidate_ms"] = optional_number(a.candidate_ms);
    j["reference_ms"] = optional_number(a.reference_ms);
    if (a.worker_s > 0) j["worker_s"] = a.worker_s;
  }
  if (a.unstable) j["unstable"] = true;
  if (a.truncated) j["truncated"] = true;
  if (!a.quarantine.empty()) j["quarantine"] = a.quarantine;
  if (a.library_only) j["library_only"] = true;
  if (a.device) j["device"] = *a.device;
  if (a.sol_fraction) j["sol_fraction"] = *a.sol_fraction;
  if (a.hidden_shapes > 0) j["hidden_shapes"] = a.hidden_shapes;
  if (!a.environment.empty()) j["environment"] = a.environment;
  if (!a.devices_retired.empty()) {
    json retired = json::array();
    for (const auto& r : a.devices_retired) retired.push_back({{"device", r.device}, {"reason", r.reason}});
    j["devices_retired"] = retired;
  }
  return j;
}

base::Result<Attempt> attempt_from_json(const json& j) {
  if (!j.is_object()) return Error{"an attempt record is not a JSON object"};
  Attempt a;
  auto fields = [&]() -> Status {
    TRY(read(j, "model", a.key.model));
    TRY(read(j, "strategy", a.key.strategy));
    TRY(read(j, "problem", a.key.problem));
    TRY(read(j, "sample", a.key.sample));
    TRY(read(j, "turn", a.key.turn));
    if (auto p = j.find("parent"); p != j.end()) {
      if (!p->is_object()) return Error{"parent is not an object"};
      AttemptKey::Parent parent;
      TRY(read(*p, "sample", parent.sample));
      TRY(read(*p, "turn", parent.turn));
      a.key.parent = parent;
    }
    std::string status;
    TRY(read(j, "status", status));
    TRY_ASSIGN(a.status, parse_attempt_status(status));
    TRY(read(j, "message", a.message));
    TRY(read(j, "backend", a.backend));
    TRY(read(j, "mode", a.mode));
    TRY(read(j, "language", a.language));
    TRY(read(j, "precision", a.precision));
    a.evaluated = j.contains("backend");
    TRY(read(j, "speedup", a.speedup));
    TRY(read(j, "candidate_ms", a.candidate_ms));
    TRY(read(j, "reference_ms", a.reference_ms));
    TRY(read(j, "unstable", a.unstable));
    TRY(read(j, "truncated", a.truncated));
    TRY(read(j, "quarantine", a.quarantine));
    TRY(read(j, "library_only", a.library_only));
    TRY(read(j, "device", a.device));
    TRY(read(j, "sol_fraction", a.sol_fraction));
    TRY(read(j, "hidden_shapes", a.hidden_shapes));
    if (auto e = j.find("environment"); e != j.end()) {
      if (!e->is_object()) return Error{"environment is not an object"};
      a.environment = *e;
    }
    if (auto r = j.find("devices_retired"); r != j.end()) {
      if (!r->is_array()) return Error{"devices_retired is not an array"};
      for (const auto& item : *r) {
        if (!item.is_object()) return Error{"devices_retired holds a non-object"};
        DeviceRetirement d;
        TRY(read(item, "device", d.device));
        TRY(read(item, "reason", d.reason));
        a.devices_retired.push_back(std::move(d));
      }
    }
    TRY(read(j, "cost_usd", a.cost_usd));
    TRY(read(j, "worker_s", a.worker_s));
    TRY(read(j, "response_text", a.response_text));
    TRY(read(j, "feedback", a.feedback));
    if (auto u = j.find("usage"); u != j.end()) TRY(read_usage(*u, a.usage));
    return {};
  };
  if (auto s = fields(); !s) return Error{"attempt record: " + s.error().message};
  if (a.key.model.empty() || a.key.strategy.empty() || a.key.problem.empty())
    return Error{"attempt record: model, strategy or problem is missing"};
  return a;
}

}  // namespace agent
