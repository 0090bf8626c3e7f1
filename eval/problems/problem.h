// Problems: a declarative spec (spec.yaml) plus a LibTorch reference source
// (reference.cpp) in one folder, loaded at run time so that users add
// problems without rebuilding refinery. problems/README.md documents the
// format; this header is its C++ shape.
//
// load_problem() validates everything it can without a compiler: keys, types,
// dtypes, draws, and that every dim named in a shape or expression is defined
// in every size preset. Errors carry file:line:col. Problems are immutable
// once loaded and safe to share between threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/expr.h"
#include "base/result.h"
#include "eval/problems/dtype.h"
#include "eval/problems/hidden_shapes.h"

namespace eval {

// The tags a spec may carry (`tags: [conv, fusion]`), for selecting problems by kind.
inline const std::vector<std::string> kProblemTags = {"matmul",      "conv",    "norm", "reduction",
                                                      "elementwise", "pool",    "loss", "scan",
                                                      "fusion",      "network", "rnn",  "attention"};

// How a tensor's values are drawn. Parameters are numbers or dim expressions,
// kept as written and resolved per size preset.
struct DrawSpec {
  enum class Kind { uniform, normal, randint, default_init, bernoulli, constant };
  Kind kind = Kind::uniform;
  std::vector<std::pair<std::string, std::string>> params;  // key -> number or expression
};

std::string to_string(DrawSpec::Kind kind);

// A draw with its parameters resolved for one size. The meaning of a and b:
// uniform [a,b); normal mean a, std b; randint [a,b); bernoulli p=a;
// constant a. default_init resolves to uniform(-1/sqrt(fan_in), +1/sqrt(fan_in)).
struct ResolvedDraw {
  DrawSpec::Kind kind = DrawSpec::Kind::uniform;
  double a = 0, b = 1;
};

// What is done to a tensor after its draw, for inputs that KernelBench
// builds with structure: symmetric ((t + tᵀ)/2 over the last two dims),
// triu / tril (zero below / above the diagonal), softmax (over the last dim),
// sign (-1, 0 or +1 elementwise: ±1 labels from a continuous draw).
inline const std::vector<std::string>& input_transforms() {
  static const std::vector<std::string> names = {"symmetric", "triu", "tril", "softmax", "sign"};
  return names;
}

// A weight list (`kind: tensors`) as written in the spec: entries and
// repeats, kept to show the list folded as the spec folds it.
struct ListNode {
  // An entry: its name (which may hold `{expr}`s over loop variables), shape and draw.
  std::string name;
  std::vector<std::string> shape;
  DrawSpec draw;
  std::optional<DrawSpec> kernelbench_draw;
  std::string why;
  // A repeat: loop variables walked together over lists of integers
  // (values[v][iteration]), or one variable over the range "lo..hi"
  // (inclusive, expressions over the enclosing loops' variables).
  std::vector<std::string> vars;
  std::vector<std::vector<int64_t>> values;
  std::string range_lo, range_hi;
  std::vector<ListNode> children;
  bool is_repeat() const { return !vars.empty(); }
};

// One entry of a weight list with its loop variables bound: shape and draw
// parameters are expressions over the size's dims and `vars`.
struct ListEntry {
  std::string name;  // `{expr}`s replaced
  std::vector<std::string> shape;
  DrawSpec draw;
  std::optional<DrawSpec> kernelbench_draw;
  base::Dims vars;
  int line = 0, column = 0;  // of the entry in spec.yaml, for errors
  int top = 0;               // the index in `items` of the node it came from
};

// The most entries one list may hold, and tensors one problem may take.
inline constexpr size_t kMaxListEntries = 1000;
inline constexpr size_t kMaxProblemTensors = 1024;

struct InputSpec {
  std::string name;
  bool is_scalar = false;          // a number passed by value, not a tensor
  bool is_list = false;            // kind: tensors, a weight list: forward takes a std::vector of them
  bool is_weight = false;          // role: weight (parameters of a layer)
  std::vector<ListNode> items;     // a list as written
  std::vector<ListEntry> entries;  // a list expanded, in order
  DType dtype = DType::float32;
  std::vector<std::string> shape;  // dim names, numbers or expressions
  DrawSpec draw;
  std::optional<DrawSpec> kernelbench_draw;  // KernelBench's draw, where its mode's U[0,1) rule is wrong for it
  std::string then;                          // one of input_transforms(), or empty
  double scalar_value = 0;                   // for scalars
  std::string why;                           // why this distribution was chosen
};

// A problem's two size presets (spec.yaml's sizes): small for quick runs and cpu, full as KernelBench sizes it.
enum class Size { small, full };
std::string to_string(Size size);
base::Result<Size> parse_size(const std::string& name);

// One tensor or scalar forward receives. A weight list resolves to one per
// entry, named "params[3]", each knowing its list and its entry's name.
struct ResolvedInput {
  std::string name;
  std::string list;   // the list's name, for an entry of a weight list
  std::string entry;  // the entry's own name ("layer1.0.conv1.weight")
  // A weight's parameter in the Python reference's Model ("conv.weight"; a
  // list's entry: its own name), where a Python candidate's weight goes.
  std::string python_name;
  bool is_scalar = false;
  bool is_weight = false;
  DType dtype = DType::float32;
  std::vector<int64_t> shape;
  ResolvedDraw draw;
  std::optional<ResolvedDraw> kernelbench_draw;
  std::string then;  // one of input_transforms(), or empty
  double scalar_value = 0;
  int64_t elements() const;
};

struct Problem {
  std::string name;  // unique short name, e.g. "relu"
  std::string id;    // "level1/19", or "examples/<name>" for examples
  int level = 0;     // 0 for examples
  int number = 0;    // KernelBench number within the level
  std::string title;
  std::string description;
  std::string notes;
  std::vector<std::string> tags;  // from kProblemTags: what kind of work it is
  std::string dir, spec_path, reference_path;
  std::vector<InputSpec> inputs;
  std::vector<std::pair<std::string, base::Dims>> sizes;  // preset name -> dims
  std::optional<Tolerance> tolerance;
  std::string flops, bytes;  // optional expressions over dims
  // reference.py (python_reference.h), "" where the problem has none: what
  // Python candidates are built and bound with.
  std::string python_reference_path;
  std::vector<std::string> python_init;                             // Model's constructor: dims by name
  std::vector<std::pair<std::string, std::string>> python_weights;  // spec weight -> Model's parameter
  HiddenShapeRules hidden;  // which dims other shapes may change (hidden_shapes.h)
  // The spec's unfit_precisions: eval.precision values (fp16, bf16) that make
  // no sense for the problem, each with why; such a run evaluates it at fp32
  // and says so (eval::precision_for).
  std::vector<std::pair<DType, std::string>> unfit_precisions;

  const base::Dims* size(const std::string& preset) const;
  const base::Dims* size(Size preset) const { return size(to_string(preset)); }
  std::vector<std::string> size_names() const;
};

// Loads dir/spec.yaml and checks that dir/reference.cpp exists; reads
// dir/reference.py where there is one.
base::Result<Problem> load_problem(const std::string& dir);

// The inputs with shapes and draws resolved for one size preset.
base::Result<std::vector<ResolvedInput>> resolve_inputs(const Problem& problem, const std::string& preset);
inline base::Result<std::vector<ResolvedInput>> resolve_inputs(const Problem& problem, Size preset) {
  return resolve_inputs(problem, to_string(preset));
}
// The inputs resolved at any dims (a hidden shape's).
base::Result<std::vector<ResolvedInput>> resolve_inputs(const Problem& problem, const base::Dims& dims);

// ModelNew's constructor arguments at a size: the dims Problem::python_init names.
base::Result<std::vector<int64_t>> python_init_args(const Problem& problem, const std::string& preset);

// The C++ type forward() takes an input as: "torch::Tensor", "double",
// "int64_t", "bool", or "const std::vector<torch::Tensor>&" for a weight list.
std::string parameter_type(const InputSpec& input);

// The C++ parameter list of forward() as the spec defines it:
// "torch::Tensor x, double s".
std::string forward_parameters(const Problem& problem);

// A weight list as a model and a person read it: every entry's index, name
// and shape for one size, repeats folded as the spec folds them.
std::string describe_list(const InputSpec& list, const base::Dims& dims);

// How many resolved inputs (tensors and scalars) each spec input becomes:
// 1, or a list's entry count. The same for every size.
size_t resolved_count(const InputSpec& input);

}  // namespace eval
