// The spec decoders that problem.cc and weight_list.cc share; internal to
// eval/problem*.
#pragma once

#include <string>
#include <vector>

#include "base/expr.h"
#include "base/result.h"
#include "base/yaml_decode.h"
#include "eval/problems/problem.h"

namespace eval::detail {

// A draw with its parameters resolved against dims (and loop variables).
base::Result<ResolvedDraw> resolve_draw(const DrawSpec& draw, const base::Dims& dims);
// `draw:` as a kind, or one kind with its parameters; `what` names the input in errors.
base::Result<DrawSpec> decode_draw(const base::yaml::Document& doc, const YAML::Node& node, const std::string& what);
// Integer dtypes take integer draws only.
base::Status check_draw_fits(const base::yaml::Document& doc, const YAML::Node& draw_node, DType dtype,
                             const DrawSpec& draw, const std::string& what);
// A tensor's `shape` and `draw`, which an input and a list's entry write alike.
base::Status decode_shape_and_draw(const base::yaml::Document& doc, const YAML::Node& node, DType dtype,
                                   const std::string& what, std::vector<std::string>& shape_out, DrawSpec& draw_out);
// A `kind: tensors` input's items, decoded and expanded into its entries.
base::Result<InputSpec> decode_list(const base::yaml::Document& doc, const YAML::Node& node, InputSpec input);

// The spec's hidden_shapes section, checked against the problem's sizes and weights.
base::Result<HiddenShapeRules> decode_hidden_shapes(const base::yaml::Document& doc, const YAML::Node& node,
                                                    const Problem& p);
// The spec's unfit_precisions map.
base::Result<std::vector<std::pair<DType, std::string>>> decode_unfit_precisions(const base::yaml::Document& doc,
                                                                                 const YAML::Node& node);

}  // namespace eval::detail
