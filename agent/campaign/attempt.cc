#include "agent/campaign/attempt.h"

namespace agent {
using nlohmann::json;
using base::Error;
using base::Status;

std::string AttemptKey::str() const {
  return model + "/" + strategy + "/" + problem + "/s" + std::to_string(sample) + "/t" + std::to_string(turn);
}

Attempt Attempt::summary() const {
  Attempt s = *this;
  s.response_text.clear();
  s.feedback.clear();
  return s;
}

namespace {

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// Readers of one field each: absent leaves `out` as it is; a wrong type is an
// error naming the field.
Status read(const json& j, const char* name, std::string& out) {
  auto it = j.find(name);
  if (it == j.end()) return {};
  if (!it->is_string()) return Error{std::string(name) + " is not a string"};
  out = it->get<std::string>();
  return {};
}

Status read(const json& j, const char* name, bool& out) {
  auto it = j.find(name);
  if (it == j.end()) return {};
  if (!it->is_boolean()) return Error{std::string(name) + " is not true or false"};
  out = it->get<bool>();
  return {};
}

template <class Int>
Status read_integer(const json& j, const char* name, Int& out) {
  auto it = j.find(name);
  if (it == j.end()) return {};
  if (!it->is_number_integer()) return Error{std::string(name) + " is not an integer"};
  out = it->get<Int>();
  return {};
}

Status read(const json& j, const char* name, double& out) {
  auto it = j.find(name);
  if (it == j.end()) return {};
  if (!it->is_number()) return Error{std::string(name) + " is not a number"};
  out = it->get<double>();
  return {};
}

Status read(const json& j, const char* name, std::optional<double>& out) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) return {};
  if (!it->is_number()) return Error{std::string(name) + " is not a number or null"};
  out = it->get<double>();
  return {};
}

}  // namespace

json to_json(const Attempt& a) {
  json usage = {{"input_tokens", a.usage.input_tokens},
                {"cached_input_tokens", a.usage.cached_input_tokens},
                {"output_tokens", a.usage.output_tokens},
                {"reasoning_tokens", a.usage.reasoning_tokens}};
  if (!a.usage.invalid.empty()) usage["invalid"] = a.usage.invalid;
  json j = {{"key", a.key.str()},     {"model", a.key.model},       {"strategy", a.key.strategy},
            {"problem", a.key.problem}, {"sample", a.key.sample},     {"turn", a.key.turn},
            {"status", a.status},     {"message", a.message},       {"usage", usage},
            {"cost_usd", a.cost_usd}, {"response_text", a.response_text}, {"feedback", a.feedback}};
  if (a.evaluated) {
    j["backend"] = a.backend;
    if (!a.mode.empty()) j["mode"] = a.mode;
    j["speedup"] = optional_number(a.speedup);
    j["candidate_ms"] = optional_number(a.candidate_ms);
    j["reference_ms"] = optional_number(a.reference_ms);
  }
  if (a.unstable) j["unstable"] = true;
  if (a.truncated) j["truncated"] = true;
  if (!a.quarantine.empty()) j["quarantine"] = a.quarantine;
  if (a.library_only) j["library_only"] = true;
  if (a.device) j["device"] = *a.device;
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
    TRY(read_integer(j, "sample", a.key.sample));
    TRY(read_integer(j, "turn", a.key.turn));
    TRY(read(j, "status", a.status));
    TRY(read(j, "message", a.message));
    TRY(read(j, "backend", a.backend));
    TRY(read(j, "mode", a.mode));
    a.evaluated = j.contains("backend");
    TRY(read(j, "speedup", a.speedup));
    TRY(read(j, "candidate_ms", a.candidate_ms));
    TRY(read(j, "reference_ms", a.reference_ms));
    TRY(read(j, "unstable", a.unstable));
    TRY(read(j, "truncated", a.truncated));
    TRY(read(j, "quarantine", a.quarantine));
    TRY(read(j, "library_only", a.library_only));
    if (j.contains("device")) {
      int device = 0;
      TRY(read_integer(j, "device", device));
      a.device = device;
    }
    if (auto r = j.find("devices_retired"); r != j.end()) {
      if (!r->is_array()) return Error{"devices_retired is not an array"};
      for (const auto& item : *r) {
        if (!item.is_object()) return Error{"devices_retired holds a non-object"};
        DeviceRetirement d;
        TRY(read_integer(item, "device", d.device));
        TRY(read(item, "reason", d.reason));
        a.devices_retired.push_back(std::move(d));
      }
    }
    TRY(read(j, "cost_usd", a.cost_usd));
    TRY(read(j, "response_text", a.response_text));
    TRY(read(j, "feedback", a.feedback));
    if (auto u = j.find("usage"); u != j.end()) {
      if (!u->is_object()) return Error{"usage is not an object"};
      TRY(read_integer(*u, "input_tokens", a.usage.input_tokens));
      TRY(read_integer(*u, "cached_input_tokens", a.usage.cached_input_tokens));
      TRY(read_integer(*u, "output_tokens", a.usage.output_tokens));
      TRY(read_integer(*u, "reasoning_tokens", a.usage.reasoning_tokens));
      TRY(read(*u, "invalid", a.usage.invalid));
    }
    return {};
  };
  if (auto s = fields(); !s) return Error{"attempt record: " + s.error().message};
  if (a.key.model.empty() || a.key.strategy.empty() || a.key.problem.empty())
    return Error{"attempt record: model, strategy or problem is missing"};
  return a;
}

}  // namespace agent
