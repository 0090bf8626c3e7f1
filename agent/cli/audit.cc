#include "agent/cli/audit.h"

#include <regex>

#include "base/fs.h"

namespace agent {

namespace {

// The reference, its forward renamed, then a forward of the problem's own
// signature that calls it with `args`; `wrap` turns the result into what is
// returned ("" for as it is).
std::string probe_source(const eval::Problem& problem, const std::string& reference,
                         const std::vector<std::string>& args, const std::string& wrap) {
  std::string params, call;
  for (size_t i = 0; i < problem.inputs.size(); ++i) {
    const auto& in = problem.inputs[i];
    if (i) params += ", ", call += ", ";
    params += eval::parameter_type(in) + " " + in.name;
    call += args[i];
  }
  // The reference's forward under another name: its own text only, never LibTorch's headers.
  static const std::regex forward_call(R"(\bforward(\s*\())");
  const std::string renamed = std::regex_replace(reference, forward_call, "refinery_audit_reference_forward$1");
  return "// refinery problems check --audit: a probe, not a kernel\n" + renamed +
         "\n"
         "#include <ATen/core/Tensor.h>\n#include <ATen/ops/zeros_like.h>\n#include <tuple>\n#include <vector>\n"
         "namespace refinery_audit {\n"
         "inline at::Tensor zeros(const at::Tensor& t) { return at::zeros_like(t); }\n"
         "inline std::vector<at::Tensor> zeros(const std::vector<at::Tensor>& ts) {\n"
         "  std::vector<at::Tensor> out;\n  for (const auto& t : ts) out.push_back(at::zeros_like(t));\n  return "
         "out;\n}\n"
         "template <class... T> std::tuple<T...> zeros(const std::tuple<T...>& t) {\n"
         "  return std::apply([](const auto&... x) { return std::tuple<T...>(zeros(x)...); }, t);\n}\n"
         "inline at::Tensor permuted(const at::Tensor& t) {\n"
         "  const int64_t n = t.numel();\n"
         "  return n > 1 ? t.reshape({-1}).roll(n / 2 + 1).reshape(t.sizes()).contiguous() : t;\n}\n"
         "}  // namespace refinery_audit\n"
         "auto forward(" +
         params + ") { return " + wrap + "(refinery_audit_reference_forward(" + call + ")); }\n";
}

}  // namespace

std::vector<AuditProbe> audit_probes(const eval::Problem& problem, const std::string& reference) {
  std::vector<std::string> plain;
  for (const auto& in : problem.inputs) plain.push_back(in.name);
  std::vector<AuditProbe> probes;
  probes.push_back({"zeros", probe_source(problem, reference, plain, "refinery_audit::zeros"),
                    "returning zeros passes: the output is nearly zero against its tolerance"});
  for (size_t i = 0; i < problem.inputs.size(); ++i) {
    // A network's weight list is not probed: a permuted set of weights is another network.
    if (problem.inputs[i].is_scalar || problem.inputs[i].is_list) continue;
    std::vector<std::string> args = plain;
    args[i] = "refinery_audit::permuted(" + plain[i] + ")";
    probes.push_back({"without " + plain[i], probe_source(problem, reference, args, ""),
                      "permuting " + plain[i] + "'s elements passes: the output does not depend on " + plain[i] +
                          " beyond its tolerance"});
  }
  return probes;
}

base::Result<std::vector<std::string>> audit_reference(eval::Evaluator& evaluator, const eval::Problem& problem,
                                                       eval::EvalSettings settings) {
  TRY_ASSIGN(std::string reference, base::read_file(problem.reference_path));
  settings.timing.enabled = false;
  settings.profile = {};
  std::vector<std::string> findings;
  int tensors = 0, insensitive = 0;
  for (const auto& probe : audit_probes(problem, reference)) {
    TRY_ASSIGN(eval::Outcome o, evaluator.evaluate(problem, probe.source, settings));
    if (o.status == eval::Status::compile_error)
      return base::Error{problem.id + ": the audit's probe '" + probe.name + "' does not compile:\n" +
                         (o.compile ? o.compile->log : "")};
    const bool passes = o.status == eval::Status::correct;
    if (probe.name != "zeros") {
      ++tensors;
      insensitive += passes;
    }
    if (passes) findings.push_back(probe.finding);
  }
  if (tensors > 0 && insensitive == tensors) findings.push_back("the output is the same whatever the inputs");
  return findings;
}

}  // namespace agent
