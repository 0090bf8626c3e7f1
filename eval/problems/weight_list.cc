// Weight lists (`kind: tensors`): decoding a list as written, expanding its
// repeats into entries, and describing it folded for a model or a person.
// problem.h documents the types; problems/README.md the format.
#include <algorithm>
#include <cctype>

#include "base/text.h"
#include "eval/problems/problem.h"
#include "eval/problems/problem_decode.h"

namespace eval {
using base::Error;
using base::Result;
using base::Status;
namespace yaml = base::yaml;

namespace detail {
namespace {

// An entry's name with each "{expr}" replaced by its value over the loop variables.
Result<std::string> substitute_name(const std::string& pattern, const base::Dims& vars) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = pattern.find('{', pos);
    if (open == std::string::npos) break;
    size_t close = pattern.find('}', open);
    if (close == std::string::npos) return Error{"'{' without '}' in the name '" + pattern + "'"};
    TRY_ASSIGN(int64_t v, base::eval_int_expr(pattern.substr(open + 1, close - open - 1), vars));
    out += pattern.substr(pos, open - pos) + std::to_string(v);
    pos = close + 1;
  }
  return out + pattern.substr(pos);
}

Result<ListNode> decode_list_node(const yaml::Document& doc, const YAML::Node& node, DType dtype,
                                  const std::string& list);

Result<std::vector<ListNode>> decode_list_items(const yaml::Document& doc, const YAML::Node& items, DType dtype,
                                                const std::string& list) {
  TRY(yaml::expect_sequence(doc, items, "the items of weight list '" + list + "'"));
  if (items.size() == 0) return doc.error_at(items, "weight list '" + list + "' has an empty 'items'");
  std::vector<ListNode> out;
  for (const auto& item : items) {
    TRY_ASSIGN(ListNode n, decode_list_node(doc, item, dtype, list));
    out.push_back(std::move(n));
  }
  return out;
}

Result<ListNode> decode_list_node(const yaml::Document& doc, const YAML::Node& node, DType dtype,
                                  const std::string& list) {
  TRY(yaml::expect_map(doc, node,
                       "an entry ({name, shape, draw}) or a repeat ({repeat, items}) of weight list '" + list + "'"));
  ListNode n;
  if (node["repeat"]) {
    TRY(yaml::check_keys(doc, node, {"repeat", "items"}, "a repeat of weight list '" + list + "'"));
    const YAML::Node& loops = node["repeat"];
    TRY(yaml::expect_map(doc, loops, "'repeat' (loop variables: {i: [1, 2, 3]} or {i: \"0..n-1\"})"));
    if (loops.size() == 0) return doc.error_at(loops, "'repeat' names no loop variable");
    for (auto it = loops.begin(); it != loops.end(); ++it) {
      const std::string var = it->first.Scalar();
      n.vars.push_back(var);
      if (it->second.IsSequence()) {
        std::vector<int64_t> values;
        for (const auto& v : it->second) {
          TRY_ASSIGN(int64_t x, yaml::as_int(doc, v, var));
          values.push_back(x);
        }
        if (values.empty()) return doc.error_at(it->second, "loop variable '" + var + "' has no values");
        if (!n.values.empty() && values.size() != n.values.front().size())
          return doc.error_at(it->second, "loop variable '" + var + "' has " + std::to_string(values.size()) +
                                              " values and '" + n.vars.front() + "' " +
                                              std::to_string(n.values.front().size()) +
                                              ": lists of one repeat are walked together");
        n.values.push_back(std::move(values));
      } else {
        TRY_ASSIGN(std::string range, yaml::as_string(doc, it->second, var));
        size_t dots = range.find("..");
        if (dots == std::string::npos)
          return doc.error_at(it->second, "loop variable '" + var + "' must be a list of integers or a range \"a..b\"");
        if (loops.size() != 1)
          return doc.error_at(it->second, "a range loops one variable alone; walk several together with lists");
        n.range_lo = base::trim(range.substr(0, dots));
        n.range_hi = base::trim(range.substr(dots + 2));
      }
    }
    TRY_ASSIGN(YAML::Node items, yaml::require(doc, node, "items", "a repeat"));
    TRY_ASSIGN(n.children, decode_list_items(doc, items, dtype, list));
    return n;
  }
  TRY(yaml::check_keys(doc, node, {"name", "shape", "draw", "kernelbench_draw", "why"},
                       "an entry of weight list '" + list + "'"));
  TRY_ASSIGN(YAML::Node name, yaml::require(doc, node, "name", "an entry of weight list '" + list + "'"));
  TRY_ASSIGN(n.name, yaml::as_string(doc, name, "name"));
  const std::string what = "entry '" + n.name + "' of weight list '" + list + "'";
  TRY(decode_shape_and_draw(doc, node, dtype, what, n.shape, n.draw));
  if (node["kernelbench_draw"]) {
    TRY_ASSIGN(n.kernelbench_draw, decode_draw(doc, node["kernelbench_draw"], what));
    TRY(check_draw_fits(doc, node["kernelbench_draw"], dtype, *n.kernelbench_draw, what));
  }
  if (node["why"]) {
    TRY_ASSIGN(n.why, yaml::as_string(doc, node["why"], "why"));
  }
  return n;
}

// Walks the list as written (nodes beside the YAML they came from, for
// errors), binding loop variables, and appends each entry.
Status expand_list(const yaml::Document& doc, const YAML::Node& items, const std::vector<ListNode>& nodes,
                   const base::Dims& vars, std::vector<ListEntry>& out, int top = -1) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ListNode& n = nodes[i];
    const YAML::Node y = items[i];
    if (!n.is_repeat()) {
      auto name = substitute_name(n.name, vars);
      if (!name) return doc.error_at(y["name"], name.error().message);
      if (out.size() == kMaxListEntries)
        return doc.error_at(y, "a weight list holds at most " + std::to_string(kMaxListEntries) + " entries");
      out.push_back({*name, n.shape, n.draw, n.kernelbench_draw, vars, y.Mark().line, y.Mark().column,
                     top < 0 ? static_cast<int>(i) : top});
      continue;
    }
    for (const auto& var : n.vars)
      if (vars.count(var))
        return doc.error_at(y["repeat"], "loop variable '" + var + "' is already bound by an enclosing repeat");
    auto walk = [&](const base::Dims& bound) {
      return expand_list(doc, y["items"], n.children, bound, out, top < 0 ? static_cast<int>(i) : top);
    };
    if (n.values.empty()) {
      auto lo = base::eval_int_expr(n.range_lo, vars);
      auto hi = lo ? base::eval_int_expr(n.range_hi, vars) : lo;
      if (!hi) return doc.error_at(y["repeat"], "range of '" + n.vars[0] + "': " + hi.error().message);
      for (int64_t v = *lo; v <= *hi; ++v) {
        base::Dims bound = vars;
        bound[n.vars[0]] = v;
        TRY(walk(bound));
      }
    } else {
      for (size_t it = 0; it < n.values.front().size(); ++it) {
        base::Dims bound = vars;
        for (size_t v = 0; v < n.vars.size(); ++v) bound[n.vars[v]] = n.values[v][it];
        TRY(walk(bound));
      }
    }
  }
  return {};
}

}  // namespace

Result<InputSpec> decode_list(const yaml::Document& doc, const YAML::Node& node, InputSpec input) {
  const std::string what = "weight list '" + input.name + "'";
  TRY(yaml::check_keys(doc, node, {"name", "kind", "role", "dtype", "items", "why"}, what));
  TRY_ASSIGN(YAML::Node items, yaml::require(doc, node, "items", what));
  TRY_ASSIGN(input.items, decode_list_items(doc, items, input.dtype, input.name));
  TRY(expand_list(doc, items, input.items, {}, input.entries));
  for (size_t i = 0; i < input.entries.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (input.entries[i].name == input.entries[j].name) {
        YAML::Mark mark;
        mark.line = input.entries[i].line;
        mark.column = input.entries[i].column;
        return doc.error_at(mark, "entry '" + input.entries[i].name + "' appears twice in " + what + " (as entries " +
                                      std::to_string(j) + " and " + std::to_string(i) + ")");
      }
  return input;
}

}  // namespace detail

namespace {

// A dim expression for one size: its value when the dims decide it, else the
// expression with each dim replaced by its value ("C*4" stays, "H/32" -> "7").
std::string render_dim(const std::string& expr, const base::Dims& dims) {
  if (auto v = base::eval_int_expr(expr, dims)) return std::to_string(*v);
  std::string out;
  for (size_t i = 0; i < expr.size();) {
    if (std::isalpha(static_cast<unsigned char>(expr[i])) || expr[i] == '_') {
      size_t j = i;
      while (j < expr.size() && (std::isalnum(static_cast<unsigned char>(expr[j])) || expr[j] == '_')) ++j;
      const std::string word = expr.substr(i, j - i);
      auto it = dims.find(word);
      out += it == dims.end() ? word : std::to_string(it->second);
      i = j;
    } else {
      out += expr[i++];
    }
  }
  return out;
}

std::string render_shape(const std::vector<std::string>& shape, const base::Dims& dims) {
  std::vector<std::string> parts;
  for (const auto& d : shape) parts.push_back(render_dim(d, dims));
  return "[" + base::join(parts, ", ") + "]";
}

std::string render_loops(const ListNode& n) {
  if (n.values.empty()) return "for " + n.vars[0] + " in " + n.range_lo + ".." + n.range_hi;
  std::vector<std::string> tuples;
  for (size_t it = 0; it < n.values.front().size(); ++it) {
    std::vector<std::string> v;
    for (const auto& values : n.values) v.push_back(std::to_string(values[it]));
    tuples.push_back(n.vars.size() == 1 ? v[0] : "(" + base::join(v, ", ") + ")");
  }
  const std::string vars = n.vars.size() == 1 ? n.vars[0] : "(" + base::join(n.vars, ", ") + ")";
  return "for " + vars + " in " + base::join(tuples, ", ");
}

void render_nodes(const std::vector<ListNode>& nodes, const base::Dims& dims, const std::string& indent,
                  std::string& out) {
  for (const auto& n : nodes) {
    if (!n.is_repeat()) {
      out += indent + n.name + " " + render_shape(n.shape, dims) + "\n";
      continue;
    }
    out += indent + render_loops(n) + ":\n";
    render_nodes(n.children, dims, indent + "    ", out);
  }
}

}  // namespace

std::string describe_list(const InputSpec& list, const base::Dims& dims) {
  std::string out = "`" + list.name + "` (" + parameter_type(list) + "): " + std::to_string(list.entries.size()) + " " +
                    to_string(list.dtype) + " tensors, in this order; " + list.name +
                    "[i] is entry i, {expr} in a name is its value:\n";
  for (size_t t = 0; t < list.items.size(); ++t) {
    size_t first = list.entries.size(), last = 0;
    for (size_t i = 0; i < list.entries.size(); ++i)
      if (list.entries[i].top == static_cast<int>(t)) first = std::min(first, i), last = std::max(last, i);
    if (first > last) continue;  // a repeat over an empty range
    const ListNode& n = list.items[t];
    const std::string index = first == last ? "[" + std::to_string(first) + "]"
                                            : "[" + std::to_string(first) + ".." + std::to_string(last) + "]";
    if (!n.is_repeat()) {
      out += "    " + index + " " + list.entries[first].name + " " + render_shape(n.shape, dims) + "\n";
      continue;
    }
    out += "    " + index + " " + render_loops(n) + ":\n";
    render_nodes(n.children, dims, "        ", out);
  }
  return out;
}

}  // namespace eval
