// A model's response as a campaign records it: RUN/responses.jsonl holds one
// per line, appended the moment it arrives and read back when a resumed run
// reaches its attempt, so that it is never asked for (or paid for) twice.
// This file is that line's one writer (to_json) and one reader
// (response_from_json). Pure data.
//
// The line as written (keys of one JSON object):
//   key                                  the attempt's (AttemptKey::str)
//   text, reasoning                      the answer and the reasoning the API returned
//   finish_reason                        stop, length (cut at the token limit), refusal, ...
//   id                                   the API's id for the response
//   requests                             how many requests it took (0 when replayed)
//   usage {input_tokens, cached_input_tokens, output_tokens, reasoning_tokens[, invalid]}
//   cost_usd
//
// Reading is tolerant of a missing field (it takes its default) and strict
// about types, as attempt_from_json is.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "agent/campaign/attempt.h"
#include "agent/model/model_client.h"
#include "base/result.h"

namespace agent {

struct Response {
  std::string text, reasoning, finish_reason, id;
  int requests = 0;
  Usage usage;
  double cost_usd = 0;

  // Cut at the output token limit.
  bool truncated() const { return finish_reason == "length"; }
};

// The response a completed call gave, at the model's prices.
Response response_of(const Completion& completion, const Price& price);

nlohmann::json to_json(const AttemptKey& key, const Response& r);
base::Result<Response> response_from_json(const nlohmann::json& j);

}  // namespace agent
