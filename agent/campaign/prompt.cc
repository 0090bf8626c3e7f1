#include "agent/campaign/prompt.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "agent/campaign/extract.h"
#include "base/fs.h"
#include "base/text.h"
#include "build_info.h"
#include "eval/build/compile_log.h"
#include "profiler/summary.h"

namespace agent {
namespace fs = std::filesystem;
using base::Error;
using base::Result;

std::string default_prompts_dir() {
  return base::data_dir("REFINERY_PROMPTS", "prompts", REFINERY_SOURCE_DIR);
}

Result<PromptTemplates> PromptTemplates::load(const std::string& dir) {
  PromptTemplates t;
  t.dir_ = dir;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != ".txt") continue;
    TRY_ASSIGN(std::string text, base::read_file(entry.path().string()));
    t.texts_[entry.path().stem().string()] = text;
  }
  if (ec) return Error{dir + ": cannot read prompt templates: " + ec.message()};
  if (t.texts_.empty()) return Error{dir + ": no prompt templates (*.txt)"};
  return t;
}

Result<std::string> PromptTemplates::render(const std::string& name, const Values& values) const {
  auto it = texts_.find(name);
  if (it == texts_.end()) return Error{dir_ + ": no template " + name + ".txt"};
  return fill(it->second, values, dir_ + "/" + name + ".txt");
}

Result<std::string> fill(const std::string& text, const Values& values, const std::string& where) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = text.find("{{", pos);
    if (open == std::string::npos) break;
    size_t close = text.find("}}", open);
    if (close == std::string::npos) break;
    std::string key = text.substr(open + 2, close - open - 2);
    auto it = values.find(key);
    if (it == values.end()) {
      int line = 1;
      for (size_t i = 0; i < open; ++i) line += text[i] == '\n';
      return Error{where + ":" + std::to_string(line) + ": no value for {{" + key + "}}"};
    }
    out += text.substr(pos, open - pos) + it->second;
    pos = close + 2;
  }
  return out + text.substr(pos);
}

namespace {

// {{atol}} and {{rtol}}, as %g writes them.
void put_tolerance(Values& v, const eval::Tolerance& tolerance) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", tolerance.atol);
  v["atol"] = buf;
  std::snprintf(buf, sizeof buf, "%g", tolerance.rtol);
  v["rtol"] = buf;
}

}  // namespace

// The prompt's line on eval.precision, or "" at fp32.
std::string precision_line(const Target& target) {
  if (target.precision == eval::DType::float32) return "";
  return "\n- Precision: every float32 input and weight is cast to " + eval::to_string(target.precision) +
         " before the call, for your kernel and the reference alike; return " + eval::to_string(target.precision) +
         " outputs where the reference's are floating.";
}

Values first_turn_values(const eval::Problem& problem, const std::string& size, const Target& target,
                         const eval::Tolerance& tolerance, const std::string& reference_source) {
  Values v;
  v["problem_id"] = problem.id;
  v["problem_title"] = problem.title.empty() ? problem.name : problem.title;
  v["reference_source"] = base::trim(reference_source);
  v["size"] = size;
  std::string table = "| argument | kind | dtype | shape or value |\n|---|---|---|---|\n";
  std::string lists;
  auto resolved = eval::resolve_inputs(problem, size);
  const base::Dims* dims = problem.size(size);
  size_t at = 0;  // the input's first entry in `resolved`
  for (const auto& in : problem.inputs) {
    std::string shape;
    if (in.is_scalar) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", in.scalar_value);
      shape = buf;
    } else if (in.is_list) {
      shape = std::to_string(in.entries.size()) + " tensors, listed below";
      if (dims) lists += "\n" + eval::describe_list(in, *dims);
    } else if (resolved) {
      std::vector<std::string> dims_text;
      for (auto d : (*resolved)[at].shape) dims_text.push_back(std::to_string(d));
      shape = "[" + base::join(dims_text, ", ") + "]";
    }
    const char* kind = in.is_scalar ? "scalar" : in.is_list ? "weight list" : in.is_weight ? "weight" : "tensor";
    const eval::DType dtype =
        !in.is_scalar && in.dtype == eval::DType::float32 ? target.precision : in.dtype;  // as eval.precision casts it
    table += "| `" + in.name + "` | " + kind + " | " + eval::to_string(dtype) + " | " + shape + " |\n";
    at += eval::resolved_count(in);
  }
  table += lists;
  v["input_table"] = base::trim(table);
  v["backend"] = eval::to_string(target.backend);
  v["hardware"] = target.hardware;
  v["hardware_line"] = target.hardware.empty() ? "" : "\n- Hardware: " + target.hardware;
  v["precision_line"] = precision_line(target);
  v["compiler"] = target.compiler;
  v["libtorch_version"] = target.libtorch_version;
  const eval::Language& language = eval::language(target.language);
  v["file_name"] = language.candidate_file();
  v["language"] = language.prompt_name;
  v["signature"] = "forward(" + eval::forward_parameters(problem) + ")";
  put_tolerance(v, tolerance);
  return v;
}

Result<std::string> kernelbench_first_turn(const PromptTemplates& templates, const eval::Problem& problem,
                                           const std::string& size, const Target& target,
                                           const eval::Tolerance& tolerance, KernelLanguage kernels, int shots) {
  if (problem.python_reference_path.empty())
    return Error{problem.id + " has no reference.py, which the kernelbench prompt shows"};
  TRY_ASSIGN(std::string reference, base::read_file(problem.python_reference_path));
  const KernelLanguageRow& row = kernel_language(kernels);
  // Example n's model and answer: kernelbench_example_model and row.example for
  // the first, kernelbench_example<n>_model and _<kernels> after it.
  std::string examples;
  for (int n = 1; n <= shots; ++n) {
    const std::string stem = n == 1 ? "kernelbench_example" : "kernelbench_example" + std::to_string(n);
    TRY_ASSIGN(std::string example_model, templates.render(stem + "_model", {}));
    TRY_ASSIGN(std::string example_new, templates.render(n == 1 ? row.example : stem + "_" + row.name, {}));
    TRY_ASSIGN(std::string one, templates.render(shots == 1 ? "kernelbench_example_one" : "kernelbench_example_few",
                                                 {{"number", std::to_string(n)},
                                                  {"example_model", base::trim(example_model)},
                                                  {"example_new", base::trim(example_new)}}));
    examples += one;
  }
  Values v;
  v["problem_id"] = problem.id;
  v["problem_title"] = problem.title.empty() ? problem.name : problem.title;
  v["reference_py"] = base::trim(reference);
  v["kernels"] = row.wording;
  v["examples"] = examples;
  v["size"] = size;
  std::vector<std::string> dims;
  if (const base::Dims* d = problem.size(size))
    for (const auto& [name, value] : *d) dims.push_back(name + "=" + std::to_string(value));
  v["dims"] = dims.empty() ? "no dims" : base::join(dims, ", ");
  v["device"] = target.backend == eval::Backend::cuda ? "the GPU (cuda)" : "the CPU";
  v["target"] = (target.hardware.empty() ? "" : target.hardware + "; ") + "PyTorch " + target.libtorch_version;
  v["precision_line"] = precision_line(target);
  put_tolerance(v, tolerance);
  return templates.render("kernelbench_first_turn", v);
}

std::string kernelbench_language(KernelLanguage kernels) {
  switch (kernels) {
    case KernelLanguage::cuda:
      return "Python (a ModelNew module) with CUDA kernels through load_inline";
    case KernelLanguage::triton:
      return "Python (a ModelNew module) with Triton kernels";
    case KernelLanguage::cpp:
      return "Python (a ModelNew module) with C++ kernels through load_inline";
  }
  return "Python";
}

KernelLanguage default_kernels(eval::Backend backend) {
  return backend == eval::Backend::cuda ? KernelLanguage::cuda : KernelLanguage::cpp;
}

std::string trim_compile_log(const std::string& log, size_t budget_bytes) {
  // refinery's own one-line errors, when it has them, are the whole story.
  if (std::string ours = eval::refinery_errors(log); !ours.empty() && ours.size() <= budget_bytes) return ours;
  size_t first_error = log.find("error");
  size_t start = first_error == std::string::npos ? 0 : log.rfind('\n', first_error);
  start = start == std::string::npos ? 0 : start + 1;
  std::string tail = log.substr(start);
  if (tail.size() <= budget_bytes) return base::trim(tail);
  size_t cut = tail.rfind('\n', budget_bytes);
  return tail.substr(0, cut == std::string::npos ? budget_bytes : cut) + "\n[... " +
         std::to_string(tail.size() - (cut == std::string::npos ? budget_bytes : cut)) +
         " more bytes of compiler output]";
}

Result<std::string> render_feedback(const PromptTemplates& templates, const eval::Outcome& o,
                                    const std::vector<std::string>& kinds, int turn, size_t budget_bytes) {
  using eval::Status;
  auto wants = [&](const char* kind) {
    for (const auto& k : kinds)
      if (k == kind) return true;
    return false;
  };
  // No kinds (the paper's "previous generation only" context): the answer
  // alone, with no word of how it fared.
  if (kinds.empty()) {
    TRY_ASSIGN(std::string bare, templates.render("feedback_bare", {{"turn", std::to_string(turn)}}));
    TRY_ASSIGN(std::string outro, templates.render("feedback_outro", {}));
    return bare + "\n" + outro;
  }
  TRY_ASSIGN(std::string out, templates.render("feedback_intro", {{"turn", std::to_string(turn)},
                                                                  {"status", eval::to_string(o.status)},
                                                                  {"message", o.message}}));
  // Whatever the status: a finding says what to change in the source, and a
  // rejecting one is why the source was not compiled.
  if (!o.static_findings.empty()) {
    std::string lines;
    for (const auto& f : o.static_findings) lines += "- " + eval::describe(f) + "\n";
    TRY_ASSIGN(std::string s, templates.render("feedback_static",
                                               {{"findings", base::head_and_tail(base::trim(lines), budget_bytes)}}));
    out += "\n" + s;
  }
  if (o.status == Status::compile_error && wants("compile") && o.compile) {
    TRY_ASSIGN(std::string s,
               templates.render("feedback_compile", {{"compile_log", trim_compile_log(o.compile->log, budget_bytes)}}));
    out += "\n" + s;
  }
  if ((o.status == Status::runtime_error || o.status == Status::crashed || o.status == Status::timeout) &&
      wants("correctness")) {
    std::string error = o.message;
    std::string tail = base::last_lines(o.stderr_tail, 10);
    if (!tail.empty()) error += "\n" + tail;
    TRY_ASSIGN(std::string s,
               templates.render("feedback_runtime", {{"error", base::head_and_tail(error, budget_bytes)}}));
    out += "\n" + s;
  }
  if (o.status == Status::mismatch && wants("correctness")) {
    std::string lines;
    for (const auto& d : o.trials) {
      char buf[256];
      std::snprintf(
          buf, sizeof buf,
          "- trial %d, output %d: %lld of %lld elements differ (%.2f%%), max abs diff %.4g, max rel diff %.4g%s\n",
          d.trial, d.output, static_cast<long long>(d.mismatches), static_cast<long long>(d.elements),
          d.elements ? 100.0 * d.mismatches / d.elements : 0.0, d.max_abs, d.max_rel,
          d.nonfinite ? "; NaN or Inf where the reference has none" : "");
      lines += buf;
      for (const auto& m : d.first) {
        std::vector<std::string> idx;
        for (auto i : m.index) idx.push_back(std::to_string(i));
        std::snprintf(buf, sizeof buf, "  - at [%s]: expected %.6g, got %.6g\n", base::join(idx, ", ").c_str(),
                      m.expected, m.actual);
        lines += buf;
      }
    }
    TRY_ASSIGN(std::string s,
               templates.render("feedback_correctness",
                                {{"trial_lines", base::head_and_tail(base::trim(lines), budget_bytes)}}));
    out += "\n" + s;
  }
  // timing: the kernel's time, the reference's and the speedup; runtime (as
  // the KernelBench paper's feedback): the kernel's own time alone.
  if (o.status == Status::correct && (wants("timing") || wants("runtime")) && o.timing) {
    char speedup[32];
    std::snprintf(speedup, sizeof speedup, "%.3fx", o.timing->speedup);
    const std::string candidate_ms = base::format_ms(o.timing->candidate.median_ms);
    TRY_ASSIGN(std::string s, wants("timing")
                                  ? templates.render("feedback_timing",
                                                     {{"candidate_ms", candidate_ms},
                                                      {"reference_ms", base::format_ms(o.timing->reference.median_ms)},
                                                      {"speedup", speedup}})
                                  : templates.render("feedback_timing_own", {{"candidate_ms", candidate_ms}}));
    out += "\n" + s;
    if (o.library_only) {
      const std::string top = o.kernels && !o.kernels->top_other.empty() ? o.kernels->top_other.substr(0, 200) : "none";
      TRY_ASSIGN(std::string note, templates.render("feedback_library_only", {{"top_other", top}}));
      out += "\n" + note;
    }
  }
  if (wants("profile") && o.profile) {
    TRY_ASSIGN(std::string s, templates.render("feedback_profile", {{"profile", profiler::summarize(*o.profile)}}));
    out += "\n" + s;
  }
  TRY_ASSIGN(std::string outro, templates.render("feedback_outro", {}));
  return out + "\n" + outro;
}

Result<std::string> render_inspirations(const PromptTemplates& templates, const eval::Language& language,
                                        const std::vector<Attempt>& shown) {
  std::string kernels;
  for (const auto& a : shown) {
    auto code = extract_code(a.response_text, language);
    if (!code.code) continue;
    std::string verdict = to_string(a.status);
    if (a.correct() && a.speedup) verdict += ", " + base::format_number(*a.speedup) + "x the reference's speed";
    TRY_ASSIGN(std::string one, templates.render("evolve_inspiration", {{"key", "s" + std::to_string(a.key.sample) +
                                                                                    "/t" + std::to_string(a.key.turn)},
                                                                        {"verdict", verdict},
                                                                        {"fence", code.language},
                                                                        {"code", *code.code}}));
    kernels += (kernels.empty() ? "" : "\n\n") + one;
  }
  if (kernels.empty()) return std::string();
  return templates.render("evolve_inspirations", {{"kernels", kernels}});
}

}  // namespace agent
