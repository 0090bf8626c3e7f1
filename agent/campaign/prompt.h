// Prompts: templates in prompts/*.txt with {{name}} placeholders, filled from
// a problem, a target and an evaluation outcome. The text lives in the
// templates; this code only computes the values. A placeholder without a
// value is an error naming the template and line, so a template edit cannot
// silently send "{{reference_source}}" to a model. Pure once loaded.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "agent/campaign/attempt.h"
#include "agent/campaign/strategy_kind.h"
#include "base/result.h"
#include "eval/build/language.h"
#include "eval/job.h"
#include "eval/problems/problem.h"
#include "eval/verdict/outcome.h"

namespace agent {

using Values = std::map<std::string, std::string>;

class PromptTemplates {
 public:
  // Reads every *.txt in dir.
  static base::Result<PromptTemplates> load(const std::string& dir);
  base::Result<std::string> render(const std::string& name, const Values& values) const;

 private:
  std::string dir_;
  std::map<std::string, std::string> texts_;
};

// Replaces {{key}} with values[key]; `where` names the template in errors.
base::Result<std::string> fill(const std::string& text, const Values& values, const std::string& where);

struct Target {
  eval::Backend backend = eval::Backend::cpu;
  eval::LanguageId language = eval::LanguageId::cxx;  // the candidate's: its file name and how the prompt names it
  std::string hardware;                               // "NVIDIA H200, 132 SMs, 141 GB HBM3e at 4.8 TB/s" or the CPU
  std::string compiler;                               // "nvcc 13.0 (sm_90a)"
  std::string libtorch_version;
  // eval.precision: the dtype every float32 input and weight is cast to, for
  // the candidate and the reference alike; the prompt says so.
  eval::DType precision = eval::DType::float32;
};

Values first_turn_values(const eval::Problem& problem, const std::string& size, const Target& target,
                         const eval::Tolerance& tolerance, const std::string& reference_source);

// KernelBench's prompt (a strategy's `prompt: kernelbench`): the problem's
// reference.py, what to write ModelNew's kernels in, and `shots` of this
// project's examples of such an answer (0, 1 or 3; prompts/kernelbench_*.txt).
// A target without hardware (the strategy's `hardware: false`) names none.
base::Result<std::string> kernelbench_first_turn(const PromptTemplates& templates, const eval::Problem& problem,
                                                 const std::string& size, const Target& target,
                                                 const eval::Tolerance& tolerance, KernelLanguage kernels,
                                                 int shots = 1);
// What the system prompt calls the language of such an answer.
std::string kernelbench_language(KernelLanguage kernels);
// A strategy's kernels where it names none: CUDA on the cuda backend, C++ on cpu.
KernelLanguage default_kernels(eval::Backend backend);

// The feedback message for one outcome: an intro, then a section per kind in
// `kinds` that applies (compile, correctness, timing or runtime, profile),
// then the outro; with no kinds (the paper's "previous generation only"), only
// the turn's heading and the outro. The compile log and the trial lines are trimmed to `budget_bytes`
// each; the profile section (when the outcome has a profile) is
// profiler::summarize's text, within that function's own default budget.
base::Result<std::string> render_feedback(const PromptTemplates& templates, const eval::Outcome& outcome,
                                          const std::vector<std::string>& kinds, int turn, size_t budget_bytes = 4000);

// What an evolve node's prompt shows after its parent's feedback
// (prompts/evolve_inspiration*.txt): each inspiration's code as the
// extraction finds it in `language`, with its verdict; "" when none has code.
base::Result<std::string> render_inspirations(const PromptTemplates& templates, const eval::Language& language,
                                              const std::vector<Attempt>& shown);

// The first lines of a compiler log that matter: from the first error on.
std::string trim_compile_log(const std::string& log, size_t budget_bytes);

// $REFINERY_PROMPTS, else the source tree's prompts/.
std::string default_prompts_dir();

}  // namespace agent
