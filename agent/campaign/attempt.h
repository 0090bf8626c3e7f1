// One finished attempt of a campaign: a model's response to one turn of one
// chain, and what became of it. attempts.jsonl holds one per line; this file
// is that record's one writer (to_json) and one reader (attempt_from_json),
// and the store, the campaign, the strategies and the report all use the
// type. Pure data.
//
// The record as written (keys of one JSON object; nothing else is written):
//   key, model, strategy, problem, sample, turn   where in the campaign
//   status, message                               an eval status, or no_code / truncated
//   speedup, candidate_ms, reference_ms           numbers, or null when not timed
//                                                 (present only when the candidate was evaluated)
//   backend                                       cpu or cuda (only when evaluated)
//   device                                        the GPU (cuda) or runner (cpu) whose worker gave the verdict,
//                                                 when one was leased (eval/device_pool.h)
//   devices_retired [{device, reason}]            devices a failed probe took out of the rotation
//                                                 on the way (the job then ran on another), when any
//   unstable, truncated                           present (true) only when so
//   quarantine                                    why a correct speedup is set aside (eval/quarantine.h), when it is
//   library_only                                  present (true) only when a correct cuda candidate ran no kernel
//                                                 of its own and eval.library_only left it out of fast_p for p > 0
//   usage {input_tokens, cached_input_tokens, output_tokens, reasoning_tokens[, invalid]}
//   cost_usd
//   response_text, feedback                       the long texts
//
// Reading is tolerant of what older refinery wrote (a missing field takes its
// default) and strict about types: a field of the wrong type is an error
// naming it, so that a damaged line is reported, never half-read.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace agent {

struct AttemptKey {
  std::string model, strategy, problem;
  int sample = 0;
  int turn = 1;
  std::string str() const;  // "model/strategy/problem/s0/t1"
  bool operator<(const AttemptKey& o) const { return str() < o.str(); }
};

struct TokenUsage {
  int64_t input_tokens = 0, cached_input_tokens = 0, output_tokens = 0, reasoning_tokens = 0;
  std::string invalid;  // why the provider's counts were not believed; empty when they were
};

struct DeviceRetirement {
  int device = 0;
  std::string reason;
};

struct Attempt {
  AttemptKey key;
  std::string status;   // an eval status name ("correct", "mismatch", ...), "no_code" or "truncated"
  std::string message;
  bool evaluated = false;  // a candidate was compiled and run (backend and timings are set)
  std::string backend;     // "cpu" or "cuda", when evaluated
  std::string mode;        // "refinery" or "kernelbench" (eval.compat), when evaluated; empty in older records
  std::optional<double> speedup, candidate_ms, reference_ms;  // when timed
  bool unstable = false;   // the timing's uncertainty was above eval.max_uncertainty
  bool truncated = false;  // the response was cut at the output token limit
  std::string quarantine;  // why the speedup waits for `refinery accept` before it counts; empty when it does not
  bool library_only = false;  // correct, ran no kernel of its own: its speedup counts for nothing (eval.library_only)
  std::optional<int> device;                      // the device whose worker gave the verdict
  std::vector<DeviceRetirement> devices_retired;  // taken out of the rotation on the way
  TokenUsage usage;
  double cost_usd = 0;
  std::string response_text;  // the model's whole answer; empty in a store's summaries
  std::string feedback;       // what the next turn is told; empty in a store's summaries

  bool correct() const { return status == "correct"; }
  // The speedup when correct and timed, else 0.
  double correct_speedup() const { return correct() && speedup ? *speedup : 0.0; }
  // Without the long texts: what reports and the store's index keep.
  Attempt summary() const;
};

nlohmann::json to_json(const Attempt& a);
base::Result<Attempt> attempt_from_json(const nlohmann::json& j);

}  // namespace agent
