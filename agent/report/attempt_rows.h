// One row per attempt, as the report's exports and its HTML page show them:
// where the attempt stands, what became of it, what it cost, where it was
// evaluated and what a person said of it. Built from the records and the
// judgements beside them; pure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "agent/campaign/attempt.h"
#include "agent/campaign/label.h"

namespace agent {

struct AttemptRow {
  std::string key, model, strategy, problem;
  std::string level;  // "level1", from the problem's id; "" when it has none
  int sample = 0, turn = 1;
  std::string parent;  // "s0/t2" when the attempt branches from another
  std::string status, message;
  // Correct, and its speedup counts toward fast_p for p > 0 (not unstable
  // unless counted, not quarantined unless accepted, not library-only, not
  // labelled a reward hack).
  bool counts = false;
  std::optional<double> speedup, candidate_ms, reference_ms, sol_fraction;
  int64_t input_tokens = 0, output_tokens = 0, reasoning_tokens = 0;
  double cost_usd = 0;
  std::string backend, language, mode;
  std::string precision;  // fp32 unless the attempt ran at another (Attempt::precision)
  std::string gpu, cuda_driver, cuda_runtime, libtorch, sm_clock_max_mhz;
  bool unstable = false, library_only = false;
  std::string quarantine;  // still waiting for `refinery accept`
  std::string label, label_note;
  std::string dir;        // the attempt's artifact folder, relative to the run folder
  std::string candidate;  // its candidate's file name in `dir`, when evaluated
};

std::vector<AttemptRow> attempt_rows(const std::vector<Attempt>& attempts, bool count_unstable,
                                     const std::set<std::string>& accepted,
                                     const std::map<std::string, Judgement>& labels);

// The level a problem id names ("level2/17" -> "level2"), or "".
std::string problem_level(const std::string& problem);

}  // namespace agent
