#include "agent/campaign/response.h"

#include "agent/campaign/json_fields.h"

namespace agent {
using base::Error;
using base::Status;
using json_fields::read;
using nlohmann::json;

Response response_of(const Completion& completion, const Price& price) {
  const ChatResponse& r = completion.response;
  return {r.text, r.reasoning, r.finish_reason, r.id, completion.requests, r.usage, cost_usd(r.usage, price)};
}

json to_json(const AttemptKey& key, const Response& r) {
  return {{"key", key.str()}, {"text", r.text},         {"reasoning", r.reasoning},  {"finish_reason", r.finish_reason},
          {"id", r.id},       {"requests", r.requests}, {"usage", to_json(r.usage)}, {"cost_usd", r.cost_usd}};
}

base::Result<Response> response_from_json(const json& j) {
  if (!j.is_object()) return Error{"a response record is not a JSON object"};
  Response r;
  auto fields = [&]() -> Status {
    TRY(read(j, "text", r.text));
    TRY(read(j, "reasoning", r.reasoning));
    TRY(read(j, "finish_reason", r.finish_reason));
    TRY(read(j, "id", r.id));
    TRY(read(j, "requests", r.requests));
    if (auto u = j.find("usage"); u != j.end()) TRY(read_usage(*u, r.usage));
    TRY(read(j, "cost_usd", r.cost_usd));
    return {};
  };
  if (auto s = fields(); !s) return Error{"response record: " + s.error().message};
  return r;
}

}  // namespace agent
