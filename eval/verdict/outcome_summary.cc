// What leaves the judge besides the verdict's own JSON (outcome.h): an
// outcome with the run's secrets taken out of every text, and the summary a
// result.json or a check prints.
#include "eval/verdict/outcome.h"

namespace eval {
using nlohmann::json;

namespace {

// Every string in j, member names included.
json redacted(const json& j, const base::Redactor& r) {
  if (j.is_string()) return r.redact(j.get_ref<const std::string&>());
  if (j.is_array()) {
    json out = json::array();
    for (const auto& v : j) out.push_back(redacted(v, r));
    return out;
  }
  if (j.is_object()) {
    json out = json::object();
    for (auto it = j.begin(); it != j.end(); ++it) out[r.redact(it.key())] = redacted(it.value(), r);
    return out;
  }
  return j;
}

void redact(profiler::CallProfile& call, const base::Redactor& r) {
  for (auto& k : call.kernels) k.name = r.redact(k.name);
  for (auto& m : call.memory) m.kind = r.redact(m.kind);
}

}  // namespace

void redact(Outcome& o, const base::Redactor& r) {
  if (r.secrets().empty()) return;
  for (std::string* text : {&o.message, &o.phase, &o.stdout_tail, &o.stderr_tail}) *text = r.redact(*text);
  if (o.compile) {
    o.compile->log = r.redact(o.compile->log);
    o.compile->command = r.redact(o.compile->command);
  }
  for (auto& shape : o.output_shapes) shape = r.redact(shape);
  if (o.timing) o.timing->clock = r.redact(o.timing->clock);
  o.versions = redacted(o.versions, r);
  o.phases_ms = redacted(o.phases_ms, r);
  o.sandbox = redacted(o.sandbox, r);
  if (o.profile) {
    for (std::string* text : {&o.profile->tool, &o.profile->counters_note, &o.profile->device.name})
      *text = r.redact(*text);
    redact(o.profile->candidate, r);
    redact(o.profile->reference, r);
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
  if (timed && o.timing->unstable) j["unstable"] = true;
  json details = to_json(o);
  for (auto it = details.begin(); it != details.end(); ++it)
    if (!j.contains(it.key())) j[it.key()] = it.value();
  return j;
}

}  // namespace eval
