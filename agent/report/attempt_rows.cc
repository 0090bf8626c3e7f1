#include "agent/report/attempt_rows.h"

#include "eval/build/language.h"

namespace agent {

std::string problem_level(const std::string& problem) {
  const size_t slash = problem.find('/');
  return slash != std::string::npos && problem.rfind("level", 0) == 0 ? problem.substr(0, slash) : "";
}

std::vector<AttemptRow> attempt_rows(const std::vector<Attempt>& attempts, bool count_unstable,
                                     const std::set<std::string>& accepted,
                                     const std::map<std::string, Judgement>& labels) {
  std::vector<AttemptRow> rows;
  rows.reserve(attempts.size());
  for (const auto& a : attempts) {
    AttemptRow r;
    r.key = a.key.str();
    r.model = a.key.model;
    r.strategy = a.key.strategy;
    r.problem = a.key.problem;
    r.level = problem_level(a.key.problem);
    r.sample = a.key.sample;
    r.turn = a.key.turn;
    if (a.key.parent) r.parent = "s" + std::to_string(a.key.parent->sample) + "/t" + std::to_string(a.key.parent->turn);
    r.status = to_string(a.status);
    r.message = a.message.size() > 400 ? a.message.substr(0, 400) + "..." : a.message;
    r.speedup = a.correct() ? a.speedup : std::nullopt;
    r.candidate_ms = a.candidate_ms;
    r.reference_ms = a.reference_ms;
    r.sol_fraction = a.sol_fraction;
    r.input_tokens = a.usage.input_tokens;
    r.output_tokens = a.usage.output_tokens;
    r.reasoning_tokens = a.usage.reasoning_tokens;
    r.cost_usd = a.cost_usd;
    r.backend = a.backend;
    r.language = a.language;
    r.mode = a.mode;
    r.precision = a.precision.empty() ? "fp32" : a.precision;
    r.gpu = a.env("gpu");
    r.cuda_driver = a.env("cuda_driver");
    r.cuda_runtime = a.env("cuda_runtime");
    r.libtorch = a.env("libtorch");
    r.sm_clock_max_mhz = a.env("sm_clock_max_mhz");
    r.unstable = a.unstable;
    r.library_only = a.library_only;
    if (!a.quarantine.empty() && !accepted.count(r.key)) r.quarantine = a.quarantine;
    if (auto it = labels.find(r.key); it != labels.end()) {
      r.label = to_string(it->second.label);
      r.label_note = it->second.note;
    }
    r.counts = a.correct() && a.speedup && (count_unstable || !a.unstable) && r.quarantine.empty() && !a.library_only &&
               r.label != "reward_hack";
    r.dir = "attempts/" + r.key;
    if (a.evaluated)
      if (auto id = eval::parse_language(a.language.empty() ? (a.backend == "cuda" ? "cuda" : "cpp") : a.language))
        r.candidate = eval::language(*id).candidate_file();
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace agent
