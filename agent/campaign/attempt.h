// One finished attempt of a campaign: a model's response to one turn of one
// chain, and what became of it. attempts.jsonl holds one per line; this file
// is that record's one writer (to_json) and one reader (attempt_from_json),
// and the store, the campaign, the strategies and the report all use the
// type. Pure data.
//
// The record as written (keys of one JSON object; nothing else is written):
//   key, model, strategy, problem, sample, turn   where in the campaign
//   parent {sample, turn}                         the attempt this one branches from, only when
//                                                 it has one (AttemptKey::parent)
//   status, message                               an eval status, or no_code / truncated
//   speedup, candidate_ms, reference_ms           numbers, or null when not timed
//                                                 (present only when the candidate was evaluated)
//   backend                                       cpu or cuda (only when evaluated)
//   language                                      the candidate's: cpp, cuda or python (when evaluated)
//   precision                                     fp16, bf16, or fp32 where the problem's spec calls the one
//                                                 asked unfit (when evaluated at a precision other than fp32)
//   device                                        the GPU (cuda) or runner (cpu) whose worker gave the verdict,
//                                                 when one was leased (eval/device_pool.h)
//   devices_retired [{device, reason}]            devices a failed probe took out of the rotation
//                                                 on the way (the job then ran on another), when any
//   unstable, truncated                           present (true) only when so
//   quarantine                                    why a correct speedup is set aside (eval/verdict/quarantine.h), when
//   it is library_only                                  present (true) only when a correct cuda candidate ran no kernel
//                                                 of its own and eval.library_only left it out of fast_p for p > 0
//   sol_fraction                                  a correct cuda attempt's speed-of-light fraction
//                                                 (eval/verdict/speed_of_light.h), when the GPU's peaks are known
//   environment {gpu, cuda_driver, cuda_runtime,  where the verdict was given (the judge's versions), when
//     libtorch, sm_clock_max_mhz, ...}            evaluated
//   usage {input_tokens, cached_input_tokens, output_tokens, reasoning_tokens[, invalid]}
//   cost_usd
//   worker_s                                      the evaluation's worker wall time, seconds (when evaluated)
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

#include "agent/model/provider.h"
#include "base/result.h"
#include "eval/verdict/outcome.h"

namespace agent {

// Where an attempt stands in a campaign. A chain is (model, strategy, problem,
// sample) and its turns follow one another. A strategy that branches starts
// each branch as a chain of its own (a sample of its own) and names the
// attempt it branches from as the parent: the parent says where a branch came
// from and is no part of the key's identity, so str() (the store's index, the
// artifact folder) is the same with or without one.
struct AttemptKey {
  struct Parent {
    int sample = 0;
    int turn = 1;
    bool operator==(const Parent&) const = default;
  };
  std::string model, strategy, problem;
  int sample = 0;
  int turn = 1;
  std::optional<Parent> parent;  // in the same model, strategy and problem; none in a chain
  std::string str() const;       // "model/strategy/problem/s0/t1"
  bool operator<(const AttemptKey& o) const { return str() < o.str(); }
};

// What became of an attempt: its candidate's evaluation status, or no
// candidate at all. The first values are eval::Status's, in its order
// (attempt_status maps them; -Wswitch names it when eval::Status grows).
enum class AttemptStatus {
  compile_error,
  load_error,
  runtime_error,
  timeout,
  crashed,
  wrong_shape,
  mismatch,
  rejected,
  fails_hidden_shape,
  correct,
  no_code,    // the response held no code block to compile
  truncated,  // the response was cut at the output token limit before its code was complete
};

AttemptStatus attempt_status(eval::Status status);
// The record's names: eval's names for its statuses, then "no_code" and "truncated".
std::string to_string(AttemptStatus status);
base::Result<AttemptStatus> parse_attempt_status(const std::string& name);

struct DeviceRetirement {
  int device = 0;
  std::string reason;
};

struct Attempt {
  AttemptKey key;
  AttemptStatus status = AttemptStatus::crashed;
  std::string message;
  bool evaluated = false;  // a candidate was compiled and run (backend and timings are set)
  std::string backend;     // "cpu" or "cuda", when evaluated
  std::string language;    // the candidate's (eval/build/language.h), when evaluated
  std::string precision;   // eval.precision's name where it was not fp32 (Outcome::precision), when evaluated
  std::string mode;        // "refinery" or "kernelbench" (eval.compat), when evaluated; empty in older records
  std::optional<double> speedup, candidate_ms, reference_ms;  // when timed
  bool unstable = false;                                      // the timing's uncertainty was above eval.max_uncertainty
  bool truncated = false;                                     // the response was cut at the output token limit
  std::string quarantine;     // why the speedup waits for `refinery accept` before it counts; empty when it does not
  bool library_only = false;  // correct, ran no kernel of its own: its speedup counts for nothing (eval.library_only)
  std::optional<int> device;  // the device whose worker gave the verdict
  std::optional<double> sol_fraction;  // correct on cuda: the problem's speed-of-light bound over its time
  int hidden_shapes = 0;  // hidden shapes checked after a correct verdict at the shown size (eval.hidden_shapes)
  nlohmann::json environment = nlohmann::json::object();  // GPU, driver, CUDA, LibTorch, clocks (when evaluated)
  std::vector<DeviceRetirement> devices_retired;          // taken out of the rotation on the way
  Usage usage;                                            // the response's (agent/model/provider.h)
  double cost_usd = 0;
  double worker_s = 0;        // the evaluation's worker wall time (GPU seconds for budgets), when evaluated
  std::string response_text;  // the model's whole answer; empty in a store's summaries
  std::string feedback;       // what the next turn is told; empty in a store's summaries

  bool correct() const { return status == AttemptStatus::correct; }
  // An environment entry as text ("" when absent): "NVIDIA H100 80GB HBM3", "13000".
  std::string env(const std::string& key) const;
  // The speedup when correct and timed, else 0.
  double correct_speedup() const { return correct() && speedup ? *speedup : 0.0; }
  // Without the long texts: what reports and the store's index keep.
  Attempt summary() const;
  // Takes the verdict of an evaluation: status, message, timings and flags,
  // mode and devices. `evaluated` becomes true; `backend` is the caller's.
  void take(const eval::Outcome& outcome);
};

// The "usage" object of an attempt or response record.
nlohmann::json to_json(const Usage& usage);
base::Status read_usage(const nlohmann::json& j, Usage& usage);

nlohmann::json to_json(const Attempt& a);
base::Result<Attempt> attempt_from_json(const nlohmann::json& j);

}  // namespace agent
