#include "eval/problems/problem.h"
#include "eval/problems/python_reference.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "base/fs.h"
#include "base/text.h"
#include "base/yaml_decode.h"
#include "eval/problems/problem_decode.h"

namespace eval {

std::string to_string(Size size) {
  switch (size) {
    case Size::small:
      return "small";
    case Size::full:
      return "full";
  }
  return "small";
}

base::Result<Size> parse_size(const std::string& name) {
  for (Size s : {Size::small, Size::full})
    if (to_string(s) == name) return s;
  return base::Error{"unknown size '" + name + "' (expected small or full)"};
}
namespace fs = std::filesystem;
using base::Error;
using base::Result;
using base::Status;
namespace yaml = base::yaml;

namespace {

struct DrawKindInfo {
  DrawSpec::Kind kind;
  const char* name;
  std::vector<std::string> params;
  std::vector<std::string> required;
};

const std::vector<DrawKindInfo>& draw_kinds() {
  static const std::vector<DrawKindInfo> kinds = {
      {DrawSpec::Kind::uniform, "uniform", {"low", "high"}, {}},
      {DrawSpec::Kind::normal, "normal", {"mean", "std"}, {}},
      {DrawSpec::Kind::randint, "randint", {"low", "high"}, {"high"}},
      {DrawSpec::Kind::default_init, "default_init", {"fan_in"}, {"fan_in"}},
      {DrawSpec::Kind::bernoulli, "bernoulli", {"p"}, {"p"}},
      {DrawSpec::Kind::constant, "constant", {"value"}, {"value"}},
  };
  return kinds;
}

std::vector<std::string> draw_kind_names() {
  std::vector<std::string> out;
  for (const auto& k : draw_kinds()) out.push_back(k.name);
  return out;
}

const DrawKindInfo& info(DrawSpec::Kind kind) {
  for (const auto& k : draw_kinds())
    if (k.kind == kind) return k;
  return draw_kinds().front();
}

// A number literal, or an integer expression over dims.
Result<double> resolve_number(const std::string& text, const base::Dims& dims) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end && *end == '\0' && !text.empty()) return v;
  TRY_ASSIGN(int64_t i, base::eval_int_expr(text, dims));
  return static_cast<double>(i);
}

std::string param_or(const DrawSpec& draw, const std::string& key, const std::string& fallback) {
  for (const auto& [k, v] : draw.params)
    if (k == key) return v;
  return fallback;
}

}  // namespace

namespace detail {

Result<ResolvedDraw> resolve_draw(const DrawSpec& draw, const base::Dims& dims) {
  using K = DrawSpec::Kind;
  ResolvedDraw out;
  out.kind = draw.kind;
  auto num = [&](const char* key, const char* fallback) { return resolve_number(param_or(draw, key, fallback), dims); };
  switch (draw.kind) {
    case K::uniform: {
      TRY_ASSIGN(out.a, num("low", "0"));
      TRY_ASSIGN(out.b, num("high", "1"));
      if (!(out.a < out.b)) return Error{"uniform draw needs low < high"};
      break;
    }
    case K::normal: {
      TRY_ASSIGN(out.a, num("mean", "0"));
      TRY_ASSIGN(out.b, num("std", "1"));
      if (!(out.b > 0)) return Error{"normal draw needs std > 0"};
      break;
    }
    case K::randint: {
      TRY_ASSIGN(out.a, num("low", "0"));
      TRY_ASSIGN(out.b, num("high", "1"));
      if (!(out.a < out.b)) return Error{"randint draw needs low < high"};
      break;
    }
    case K::default_init: {
      TRY_ASSIGN(double fan_in, num("fan_in", "1"));
      if (!(fan_in > 0)) return Error{"default_init needs fan_in > 0"};
      out.kind = K::uniform;
      out.a = -1.0 / std::sqrt(fan_in);
      out.b = 1.0 / std::sqrt(fan_in);
      break;
    }
    case K::bernoulli: {
      TRY_ASSIGN(out.a, num("p", "0.5"));
      if (out.a < 0 || out.a > 1) return Error{"bernoulli draw needs 0 <= p <= 1"};
      break;
    }
    case K::constant: {
      TRY_ASSIGN(out.a, num("value", "0"));
      break;
    }
  }
  return out;
}

Result<DrawSpec> decode_draw(const yaml::Document& doc, const YAML::Node& node, const std::string& what) {
  DrawSpec draw;
  YAML::Node params;
  std::string kind_name;
  YAML::Node kind_node = node;
  if (node.IsScalar()) {
    kind_name = node.Scalar();
  } else if (node.IsMap() && node.size() == 1) {
    // reset(), not '=': assigning to a yaml-cpp node writes through to what it refers to.
    kind_node.reset(node.begin()->first);
    kind_name = kind_node.Scalar();
    params.reset(node.begin()->second);
  } else {
    return doc.error_at(node, "expected draw of " + what +
                                  " to be a kind ('normal') or one kind with its parameters "
                                  "('normal: {mean: 0, std: 1}')");
  }
  TRY_ASSIGN(std::string checked, yaml::as_choice(doc, kind_node, "draw", draw_kind_names()));
  for (const auto& k : draw_kinds())
    if (checked == k.name) draw.kind = k.kind;
  const auto& kind_info = info(draw.kind);
  const std::string draw_what = checked + " draw of " + what;
  if (params.IsDefined() && !params.IsNull()) {
    TRY(yaml::expect_map(doc, params, draw_what));
    TRY(yaml::check_keys(doc, params, kind_info.params, draw_what));
    for (auto it = params.begin(); it != params.end(); ++it) {
      TRY_ASSIGN(std::string value, yaml::as_string(doc, it->second, it->first.Scalar()));
      draw.params.emplace_back(it->first.Scalar(), value);
    }
  }
  for (const auto& required : kind_info.required) {
    if (param_or(draw, required, "").empty())
      return doc.error_at(node, "missing required parameter '" + required + "' in " + draw_what);
  }
  return draw;
}

// Integer dtypes take integer draws only.
Status check_draw_fits(const yaml::Document& doc, const YAML::Node& draw_node, DType dtype, const DrawSpec& draw,
                       const std::string& what) {
  using K = DrawSpec::Kind;
  const bool integral_draw = draw.kind == K::randint || draw.kind == K::bernoulli || draw.kind == K::constant;
  if (!is_floating(dtype) && !integral_draw)
    return doc.error_at(draw_node,
                        what + " has dtype " + to_string(dtype) + "; draw it with randint, bernoulli or constant");
  return {};
}

// A tensor's `shape` and `draw`, which an input and a list's entry write alike.
Status decode_shape_and_draw(const yaml::Document& doc, const YAML::Node& node, DType dtype, const std::string& what,
                             std::vector<std::string>& shape_out, DrawSpec& draw_out) {
  TRY_ASSIGN(YAML::Node shape, yaml::require(doc, node, "shape", what));
  TRY(yaml::expect_sequence(doc, shape, "the shape of " + what));
  for (const auto& dim : shape) {
    TRY_ASSIGN(std::string d, yaml::as_string(doc, dim, "shape"));
    shape_out.push_back(d);
  }
  TRY_ASSIGN(YAML::Node draw, yaml::require(doc, node, "draw", what));
  TRY_ASSIGN(draw_out, decode_draw(doc, draw, what));
  return check_draw_fits(doc, draw, dtype, draw_out, what);
}

}  // namespace detail

using namespace detail;

namespace {

Result<InputSpec> decode_input(const yaml::Document& doc, const YAML::Node& node) {
  TRY(yaml::expect_map(doc, node, "an input"));
  InputSpec input;
  TRY_ASSIGN(YAML::Node name_node, yaml::require(doc, node, "name", "input"));
  TRY_ASSIGN(input.name, yaml::as_string(doc, name_node, "name"));
  const std::string what = "input '" + input.name + "'";
  TRY(yaml::check_keys(
      doc, node,
      {"name", "kind", "role", "dtype", "shape", "draw", "kernelbench_draw", "then", "value", "why", "items"}, what));
  if (node["kind"]) {
    TRY_ASSIGN(std::string kind, yaml::as_choice(doc, node["kind"], "kind", {"tensor", "scalar", "tensors"}));
    input.is_scalar = kind == "scalar";
    input.is_list = kind == "tensors";
  }
  if (node["role"]) {
    TRY_ASSIGN(std::string role, yaml::as_choice(doc, node["role"], "role", {"input", "weight"}));
    input.is_weight = role == "weight";
  }
  if (node["why"]) {
    TRY_ASSIGN(input.why, yaml::as_string(doc, node["why"], "why"));
  }
  TRY_ASSIGN(YAML::Node dtype_node, yaml::require(doc, node, "dtype", what));
  TRY_ASSIGN(std::string dtype, yaml::as_choice(doc, dtype_node, "dtype", dtype_names()));
  input.dtype = *parse_dtype(dtype);
  if (input.is_list) return decode_list(doc, node, std::move(input));
  if (node["items"]) return doc.error_at(node["items"], "'items' belongs to a weight list (kind: tensors)");
  if (input.is_scalar) {
    if (node["shape"]) return doc.error_at(node["shape"], "a scalar input has no shape");
    if (node["draw"]) return doc.error_at(node["draw"], "a scalar input has a fixed 'value', not a draw");
    if (node["then"]) return doc.error_at(node["then"], "a scalar input has a fixed 'value', nothing to transform");
    TRY_ASSIGN(YAML::Node value, yaml::require(doc, node, "value", what));
    TRY_ASSIGN(input.scalar_value, yaml::as_double(doc, value, "value"));
    return input;
  }
  if (node["value"]) return doc.error_at(node["value"], "'value' is only for scalar inputs");
  TRY(decode_shape_and_draw(doc, node, input.dtype, what, input.shape, input.draw));
  const YAML::Node draw = node["draw"];
  if (node["kernelbench_draw"]) {
    TRY_ASSIGN(input.kernelbench_draw, decode_draw(doc, node["kernelbench_draw"], what));
    TRY(check_draw_fits(doc, node["kernelbench_draw"], input.dtype, *input.kernelbench_draw, what));
  }
  const bool integral = !is_floating(input.dtype);
  if (node["then"]) {
    TRY_ASSIGN(input.then, yaml::as_choice(doc, node["then"], "then", input_transforms()));
    if (integral) return doc.error_at(node["then"], "'then: " + input.then + "' needs a floating dtype");
    const size_t rank = input.then == "sign" ? 0 : input.then == "softmax" ? 1 : 2;
    if (input.shape.size() < rank)
      return doc.error_at(node["then"],
                          "'then: " + input.then + "' needs a tensor of at least " + std::to_string(rank) + " dims");
    if (input.then == "symmetric" && input.shape[input.shape.size() - 1] != input.shape[input.shape.size() - 2])
      return doc.error_at(node["then"], "'then: symmetric' needs its last two dims to be the same dim name");
  }
  return input;
}

Status check_resolves(const yaml::Document& doc, const YAML::Node& root, const Problem& p) {
  for (const auto& [preset, dims] : p.sizes) {
    for (size_t i = 0; i < p.inputs.size(); ++i) {
      const auto& in = p.inputs[i];
      YAML::Node node = root["inputs"][i];
      for (const auto& e : in.entries) {
        YAML::Mark mark;
        mark.line = e.line;
        mark.column = e.column;
        const std::string where = "size '" + preset + "', entry '" + e.name + "': ";
        base::Dims bound = dims;
        for (const auto& [var, value] : e.vars) {
          if (dims.count(var)) return doc.error_at(mark, where + "loop variable '" + var + "' is also a dim");
          bound[var] = value;
        }
        for (const auto& d : e.shape) {
          auto v = base::eval_int_expr(d, bound);
          if (!v) return doc.error_at(mark, where + v.error().message);
          if (*v <= 0) return doc.error_at(mark, where + "dim '" + d + "' is " + std::to_string(*v));
        }
        auto draw = resolve_draw(e.draw, bound);
        if (!draw) return doc.error_at(mark, where + draw.error().message);
        if (e.kernelbench_draw)
          if (auto kb = resolve_draw(*e.kernelbench_draw, bound); !kb)
            return doc.error_at(mark, where + kb.error().message);
      }
      for (size_t d = 0; d < in.shape.size(); ++d) {
        auto v = base::eval_int_expr(in.shape[d], dims);
        if (!v) return doc.error_at(node["shape"][d], "size '" + preset + "': " + v.error().message);
        if (*v <= 0) return doc.error_at(node["shape"][d], "size '" + preset + "': dim is " + std::to_string(*v));
      }
      if (!in.is_scalar && !in.is_list) {
        auto draw = resolve_draw(in.draw, dims);
        if (!draw) return doc.error_at(node["draw"], "size '" + preset + "': " + draw.error().message);
      }
      if (in.kernelbench_draw) {
        auto draw = resolve_draw(*in.kernelbench_draw, dims);
        if (!draw) return doc.error_at(node["kernelbench_draw"], "size '" + preset + "': " + draw.error().message);
      }
    }
    for (const char* key : {"flops", "bytes"}) {
      const std::string& expr = std::string(key) == "flops" ? p.flops : p.bytes;
      if (expr.empty()) continue;
      auto v = base::eval_int_expr(expr, dims);
      if (!v) return doc.error_at(root[key], "size '" + preset + "': " + v.error().message);
    }
  }
  return {};
}

}  // namespace

std::string to_string(DrawSpec::Kind kind) {
  return info(kind).name;
}

int64_t ResolvedInput::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

const base::Dims* Problem::size(const std::string& preset) const {
  for (const auto& [name, dims] : sizes)
    if (name == preset) return &dims;
  return nullptr;
}

std::vector<std::string> Problem::size_names() const {
  std::vector<std::string> out;
  for (const auto& s : sizes) out.push_back(s.first);
  return out;
}

Result<Problem> load_problem(const std::string& dir) {
  Problem p;
  p.dir = dir;
  p.spec_path = (fs::path(dir) / "spec.yaml").string();
  p.reference_path = (fs::path(dir) / "reference.cpp").string();
  if (!fs::exists(p.spec_path)) return Error{dir + ": no spec.yaml in problem folder"};
  if (!fs::exists(p.reference_path)) return Error{dir + ": no reference.cpp in problem folder"};
  if (std::string py = (fs::path(dir) / "reference.py").string(); fs::exists(py)) {
    TRY_ASSIGN(std::string text, base::read_file(py));
    TRY_ASSIGN(PythonReference parsed, parse_python_reference(text, py));
    p.python_reference_path = py;
    p.python_init = std::move(parsed.init);
    p.python_weights = std::move(parsed.weights);
  }
  TRY_ASSIGN(yaml::Document doc, yaml::Document::load_file(p.spec_path));
  const YAML::Node& root = doc.root();
  TRY(yaml::expect_map(doc, root, "the problem spec"));
  TRY(yaml::check_keys(doc, root,
                       {"name", "level", "number", "title", "description", "notes", "tags", "inputs", "sizes",
                        "tolerance", "flops", "bytes", "hidden_shapes", "unfit_precisions"},
                       "problem spec"));
  TRY_ASSIGN(YAML::Node name, yaml::require(doc, root, "name", "problem spec"));
  TRY_ASSIGN(p.name, yaml::as_string(doc, name, "name"));
  if (root["level"]) {
    TRY_ASSIGN(int64_t level, yaml::as_int(doc, root["level"], "level"));
    TRY_ASSIGN(YAML::Node number, yaml::require(doc, root, "number", "problem spec with a level"));
    TRY_ASSIGN(int64_t n, yaml::as_int(doc, number, "number"));
    if (level < 1 || level > 4) return doc.error_at(root["level"], "level must be 1 to 4");
    p.level = static_cast<int>(level);
    p.number = static_cast<int>(n);
    p.id = "level" + std::to_string(level) + "/" + std::to_string(n);
  } else {
    p.id = "examples/" + p.name;
  }
  if (root["title"]) {
    TRY_ASSIGN(p.title, yaml::as_string(doc, root["title"], "title"));
  }
  if (root["description"]) {
    TRY_ASSIGN(p.description, yaml::as_string(doc, root["description"], "description"));
  }
  if (root["notes"]) {
    TRY_ASSIGN(p.notes, yaml::as_string(doc, root["notes"], "notes"));
  }
  if (root["tags"]) {
    TRY(yaml::expect_sequence(doc, root["tags"], "'tags'"));
    for (const auto& tag : root["tags"]) {
      TRY_ASSIGN(std::string t, yaml::as_string(doc, tag, "tags"));
      if (std::find(kProblemTags.begin(), kProblemTags.end(), t) == kProblemTags.end()) {
        std::string message = "unknown tag '" + t + "' (tags: " + base::join(kProblemTags, ", ") + ")";
        return doc.error_at(tag, message);
      }
      p.tags.push_back(t);
    }
  }
  if (root["flops"]) {
    TRY_ASSIGN(p.flops, yaml::as_string(doc, root["flops"], "flops"));
  }
  if (root["bytes"]) {
    TRY_ASSIGN(p.bytes, yaml::as_string(doc, root["bytes"], "bytes"));
  }

  TRY_ASSIGN(YAML::Node inputs, yaml::require(doc, root, "inputs", "problem spec"));
  TRY(yaml::expect_sequence(doc, inputs, "'inputs'"));
  for (const auto& node : inputs) {
    TRY_ASSIGN(InputSpec input, decode_input(doc, node));
    for (const auto& other : p.inputs)
      if (other.name == input.name) return doc.error_at(node, "duplicate input name '" + input.name + "'");
    p.inputs.push_back(std::move(input));
  }
  size_t tensors = 0;
  for (const auto& in : p.inputs) tensors += resolved_count(in);
  if (tensors > kMaxProblemTensors)
    return doc.error_at(inputs, "forward takes " + std::to_string(tensors) + " tensors and scalars; at most " +
                                    std::to_string(kMaxProblemTensors));

  TRY_ASSIGN(YAML::Node sizes, yaml::require(doc, root, "sizes", "problem spec"));
  TRY(yaml::expect_map(doc, sizes, "'sizes'"));
  for (auto it = sizes.begin(); it != sizes.end(); ++it) {
    const std::string preset = it->first.Scalar();
    TRY(yaml::expect_map(doc, it->second, "size '" + preset + "'"));
    base::Dims dims;
    for (auto d = it->second.begin(); d != it->second.end(); ++d) {
      TRY_ASSIGN(int64_t v, yaml::as_int(doc, d->second, d->first.Scalar()));
      dims[d->first.Scalar()] = v;
    }
    p.sizes.emplace_back(preset, std::move(dims));
  }
  for (const char* required : {"full", "small"})
    if (!p.size(required)) return doc.error_at(sizes, std::string("missing required size preset '") + required + "'");

  if (root["tolerance"]) {
    const YAML::Node& t = root["tolerance"];
    TRY(yaml::expect_map(doc, t, "'tolerance'"));
    TRY(yaml::check_keys(doc, t, {"atol", "rtol"}, "tolerance"));
    Tolerance tol;
    if (t["atol"]) {
      TRY_ASSIGN(tol.atol, yaml::as_double(doc, t["atol"], "atol"));
    }
    if (t["rtol"]) {
      TRY_ASSIGN(tol.rtol, yaml::as_double(doc, t["rtol"], "rtol"));
    }
    p.tolerance = tol;
  }
  TRY(check_resolves(doc, root, p));
  if (root["hidden_shapes"]) {
    TRY_ASSIGN(p.hidden, detail::decode_hidden_shapes(doc, root["hidden_shapes"], p));
  }
  if (root["unfit_precisions"]) {
    TRY_ASSIGN(p.unfit_precisions, detail::decode_unfit_precisions(doc, root["unfit_precisions"]));
  }
  return p;
}

Result<std::vector<int64_t>> python_init_args(const Problem& problem, const std::string& preset) {
  const base::Dims* dims = problem.size(preset);
  if (!dims) return Error{problem.id + ": no size preset '" + preset + "'"};
  std::vector<int64_t> out;
  for (const auto& name : problem.python_init) {
    auto it = dims->find(name);
    if (it == dims->end())
      return Error{problem.python_reference_path + ": Model's constructor takes " + name +
                   ", which is no dim of the size " + preset};
    out.push_back(it->second);
  }
  return out;
}

Result<std::vector<ResolvedInput>> resolve_inputs(const Problem& problem, const std::string& preset) {
  const base::Dims* dims = problem.size(preset);
  if (!dims)
    return Error{problem.id + ": no size preset '" + preset + "' (has: " + base::join(problem.size_names(), ", ") +
                 ")"};
  return resolve_inputs(problem, *dims);
}

Result<std::vector<ResolvedInput>> resolve_inputs(const Problem& problem, const base::Dims& shape) {
  const base::Dims* dims = &shape;
  std::vector<ResolvedInput> out;
  for (const auto& in : problem.inputs) {
    for (size_t i = 0; i < in.entries.size(); ++i) {
      const ListEntry& e = in.entries[i];
      ResolvedInput r;
      r.name = in.name + "[" + std::to_string(i) + "]";
      r.list = in.name;
      r.entry = e.name;
      r.python_name = e.name;
      r.is_weight = in.is_weight;
      r.dtype = in.dtype;
      base::Dims bound = *dims;
      for (const auto& [var, value] : e.vars) bound[var] = value;
      for (const auto& d : e.shape) {
        TRY_ASSIGN(int64_t v, base::eval_int_expr(d, bound));
        r.shape.push_back(v);
      }
      TRY_ASSIGN(r.draw, resolve_draw(e.draw, bound));
      if (e.kernelbench_draw) {
        TRY_ASSIGN(r.kernelbench_draw, resolve_draw(*e.kernelbench_draw, bound));
      }
      out.push_back(std::move(r));
    }
    if (in.is_list) continue;
    ResolvedInput r;
    r.is_weight = in.is_weight;
    r.name = in.name;
    for (const auto& [weight, parameter] : problem.python_weights)
      if (weight == in.name) r.python_name = parameter;
    r.is_scalar = in.is_scalar;
    r.dtype = in.dtype;
    r.then = in.then;
    r.scalar_value = in.scalar_value;
    for (const auto& d : in.shape) {
      TRY_ASSIGN(int64_t v, base::eval_int_expr(d, *dims));
      r.shape.push_back(v);
    }
    if (!in.is_scalar) {
      TRY_ASSIGN(r.draw, resolve_draw(in.draw, *dims));
    }
    if (in.kernelbench_draw) {
      TRY_ASSIGN(r.kernelbench_draw, resolve_draw(*in.kernelbench_draw, *dims));
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::string parameter_type(const InputSpec& input) {
  if (input.is_list) return "const std::vector<torch::Tensor>&";
  if (!input.is_scalar) return "torch::Tensor";
  return input.dtype == DType::boolean ? "bool" : is_floating(input.dtype) ? "double" : "int64_t";
}

std::string forward_parameters(const Problem& problem) {
  std::vector<std::string> params;
  for (const auto& in : problem.inputs) params.push_back(parameter_type(in) + " " + in.name);
  return base::join(params, ", ");
}

size_t resolved_count(const InputSpec& input) {
  return input.is_list ? input.entries.size() : 1;
}

}  // namespace eval
