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
#include "eval/dtype.h"

namespace eval {

// The tags a spec may carry (`tags: [conv, fusion]`), for selecting problems by kind.
inline const std::vector<std::string> kProblemTags = {"matmul", "conv", "norm", "reduction", "elementwise", "pool",
                                                     "loss", "scan", "fusion", "network", "rnn", "attention"};

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

struct InputSpec {
  std::string name;
  bool is_scalar = false;     // a number passed by value, not a tensor
  bool is_weight = false;     // role: weight (parameters of a layer)
  DType dtype = DType::float32;
  std::vector<std::string> shape;  // dim names, numbers or expressions
  DrawSpec draw;
  std::string then;           // one of input_transforms(), or empty
  double scalar_value = 0;    // for scalars
  std::string why;            // why this distribution was chosen
};

struct ResolvedInput {
  std::string name;
  bool is_scalar = false;
  DType dtype = DType::float32;
  std::vector<int64_t> shape;
  ResolvedDraw draw;
  std::string then;           // one of input_transforms(), or empty
  double scalar_value = 0;
  int64_t elements() const;
};

struct Problem {
  std::string name;         // unique short name, e.g. "relu"
  std::string id;           // "level1/19", or "examples/<name>" for examples
  int level = 0;            // 0 for examples
  int number = 0;           // KernelBench number within the level
  std::string title;
  std::string description;
  std::string notes;
  std::vector<std::string> tags;  // from kProblemTags: what kind of work it is
  std::string dir, spec_path, reference_path;
  std::vector<InputSpec> inputs;
  std::vector<std::pair<std::string, base::Dims>> sizes;  // preset name -> dims
  std::optional<Tolerance> tolerance;
  std::string flops, bytes;  // optional expressions over dims

  const base::Dims* size(const std::string& preset) const;
  std::vector<std::string> size_names() const;
};

// Loads dir/spec.yaml and checks that dir/reference.cpp exists.
base::Result<Problem> load_problem(const std::string& dir);

// The inputs with shapes and draws resolved for one size preset.
base::Result<std::vector<ResolvedInput>> resolve_inputs(const Problem& problem,
                                                         const std::string& preset);

// The C++ parameter list of forward() as the spec defines it:
// "torch::Tensor x, double s".
std::string forward_parameters(const Problem& problem);

}  // namespace eval
