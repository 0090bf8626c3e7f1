// The replay provider: serves recorded responses instead of asking a model,
// so that a campaign runs offline and deterministically. The source is a
// JSON-lines file, or a run folder (its responses.jsonl), whose lines hold
// "key" (model/strategy/problem/s<sample>/t<turn>) and "text".
//
// A request is matched by its problem, sample and turn; when the replay
// model names `model:`, only lines recorded for that model match. So a
// finished run re-evaluates on another GPU or another refinery version
// without a single new request. Immutable after load; thread-safe.
#pragma once

#include <map>
#include <string>

#include "agent/campaign/run_store.h"
#include "agent/model/model_client.h"

namespace agent {

class Replay {
 public:
  static base::Result<Replay> load(const std::string& source);
  base::Result<Completion> answer(const ModelConfig& model, const AttemptKey& key) const;
  size_t size() const { return lines_.size(); }

 private:
  std::string source_;
  std::vector<nlohmann::json> lines_;
};

}  // namespace agent
