// The spec's optional sections that say how a problem may be varied:
// hidden_shapes (hidden_shapes.h) and unfit_precisions.
#include "base/text.h"
#include "base/yaml_decode.h"
#include "eval/problems/dtype.h"
#include "eval/problems/problem_decode.h"

namespace eval::detail {

using base::Result;
namespace yaml = base::yaml;

// The spec's hidden_shapes section (hidden_shapes.h): a `vary` map of dims
// to {min, max, multiple_of}, or `fixed` with the reason none may vary. A
// varying dim must be a dim of every size, and moving it to its least value
// must leave every weight's shape as it is.
Result<HiddenShapeRules> decode_hidden_shapes(const yaml::Document& doc, const YAML::Node& node, const Problem& p) {
  TRY(yaml::expect_map(doc, node, "'hidden_shapes'"));
  TRY(yaml::check_keys(doc, node, {"vary", "fixed"}, "hidden_shapes"));
  HiddenShapeRules h;
  h.declared = true;
  if (node["fixed"]) {
    TRY_ASSIGN(h.fixed, yaml::as_string(doc, node["fixed"], "fixed"));
    if (base::trim(h.fixed).empty()) return doc.error_at(node["fixed"], "'fixed' says why no dim may vary");
  }
  if (!node["vary"]) {
    if (h.fixed.empty())
      return doc.error_at(node, "hidden_shapes needs 'vary' (dims that may change) or 'fixed' (why none may)");
    return h;
  }
  if (!h.fixed.empty()) return doc.error_at(node["fixed"], "hidden_shapes has 'vary' or 'fixed', not both");
  TRY(yaml::expect_map(doc, node["vary"], "'vary'"));
  for (auto it = node["vary"].begin(); it != node["vary"].end(); ++it) {
    VaryRule r;
    r.dim = it->first.Scalar();
    for (const auto& [preset, dims] : p.sizes)
      if (!dims.contains(r.dim))
        return doc.error_at(it->first, "'" + r.dim + "' is not a dim of size '" + preset + "'");
    TRY(yaml::expect_map(doc, it->second, "rule of '" + r.dim + "'"));
    TRY(yaml::check_keys(doc, it->second, {"min", "max", "multiple_of"}, "a hidden_shapes rule"));
    if (it->second["min"]) {
      TRY_ASSIGN(r.min, yaml::as_int_in(doc, it->second["min"], "min", 1, int64_t{1} << 40));
    }
    if (it->second["max"]) {
      TRY_ASSIGN(int64_t max, yaml::as_int_in(doc, it->second["max"], "max", r.min, int64_t{1} << 40));
      r.max = max;
    }
    if (it->second["multiple_of"]) {
      TRY_ASSIGN(r.multiple_of, yaml::as_int_in(doc, it->second["multiple_of"], "multiple_of", 1, int64_t{1} << 20));
    }
    for (const auto& name : p.python_init)
      if (name == r.dim)
        return doc.error_at(it->first, "'" + r.dim + "' is an argument of reference.py's Model; it may not vary");
    for (const auto& [preset, dims] : p.sizes) {
      base::Dims probe = dims;
      probe[r.dim] = r.min;
      auto shown = resolve_inputs(p, dims);
      auto moved = resolve_inputs(p, probe);
      if (!shown || !moved)
        return doc.error_at(it->first, "with " + r.dim + "=" + std::to_string(r.min) + " the inputs do not resolve: " +
                                           (!moved ? moved.error().message : shown.error().message));
      for (size_t i = 0; i < moved->size(); ++i) {
        if (!(*moved)[i].is_weight || (*moved)[i].shape == (*shown)[i].shape) continue;
        return doc.error_at(it->first, "weight '" + (*moved)[i].name + "' changes shape with " + r.dim +
                                           ": a dim a weight depends on may not vary");
      }
    }
    h.vary.push_back(std::move(r));
  }
  if (h.vary.empty()) return doc.error_at(node["vary"], "'vary' names no dim; write 'fixed' with the reason instead");
  return h;
}

// The spec's unfit_precisions: {fp16|bf16: why}, each with its reason.
Result<std::vector<std::pair<DType, std::string>>> decode_unfit_precisions(const yaml::Document& doc,
                                                                           const YAML::Node& node) {
  TRY(yaml::expect_map(doc, node, "'unfit_precisions'"));
  std::vector<std::pair<DType, std::string>> unfit;
  for (auto it = node.begin(); it != node.end(); ++it) {
    TRY_ASSIGN(std::string name, yaml::as_choice(doc, it->first, "unfit_precisions", {"fp16", "bf16"}));
    TRY_ASSIGN(std::string why, yaml::as_string(doc, it->second, "unfit_precisions." + name));
    if (why.empty()) return doc.error_at(it->second, "unfit_precisions." + name + " says why the precision is unfit");
    unfit.emplace_back(*parse_precision(name), why);
  }
  return unfit;
}

}  // namespace eval::detail
