#include "eval/problems/hidden_shapes.h"

#include <algorithm>
#include <cmath>

#include "base/mix.h"
#include "base/text.h"
#include "eval/problems/problem.h"

namespace eval {
namespace {

// The range a rule allows at a size whose value is `shown`.
std::pair<int64_t, int64_t> range_of(const VaryRule& r, int64_t shown) {
  return {r.min, std::min(shown, r.max.value_or(shown))};
}

// The values a rule can take in [lo, hi]: rounded to multiple_of.
int64_t round_to(const VaryRule& r, int64_t v, int64_t lo, int64_t hi) {
  v = v / r.multiple_of * r.multiple_of;
  while (v < lo) v += r.multiple_of;
  return v > hi ? -1 : v;
}

}  // namespace

base::Result<std::vector<base::Dims>> draw_hidden_shapes(const Problem& problem, const std::string& preset, int n,
                                                         uint64_t seed) {
  const base::Dims* shown = problem.size(preset);
  if (!shown) return base::Error{problem.id + ": no size preset '" + preset + "'"};
  if (!problem.hidden.varies())
    return base::Error{problem.id + " has no hidden shapes: " +
                       (problem.hidden.declared ? problem.hidden.fixed : "its spec declares no hidden_shapes")};
  // Whether any dim can leave the shown value at this size.
  bool movable = false;
  for (const auto& r : problem.hidden.vary) {
    auto [lo, hi] = range_of(r, shown->at(r.dim));
    movable = movable || (round_to(r, lo, lo, hi) >= 0 && round_to(r, lo, lo, hi) != shown->at(r.dim));
  }
  if (!movable) return base::Error{problem.id + ": no dim of its hidden_shapes rules can change at size " + preset};
  std::vector<base::Dims> out;
  uint64_t state = base::mix64(seed ^ 0x6869646465ULL);
  for (int k = 0; k < n; ++k) {
    for (int attempt = 0;; ++attempt) {
      base::Dims d = *shown;
      for (const auto& r : problem.hidden.vary) {
        auto [lo, hi] = range_of(r, shown->at(r.dim));
        state = base::mix64(state);
        const double u = base::unit_interval(state);
        // Log-uniform over [lo, hi + 1): small sizes as likely as large ones.
        const double v = std::exp(std::log(static_cast<double>(lo)) +
                                  u * (std::log(static_cast<double>(hi) + 1) - std::log(static_cast<double>(lo))));
        const int64_t value = round_to(r, std::min<int64_t>(static_cast<int64_t>(v), hi), lo, hi);
        if (value > 0) d[r.dim] = value;
      }
      if (d != *shown) {
        out.push_back(std::move(d));
        break;
      }
      if (attempt > 1000) return base::Error{problem.id + ": its hidden_shapes rules keep drawing the shown size"};
    }
  }
  return out;
}

std::optional<std::string> hidden_shape_problem(const Problem& problem, const std::string& preset,
                                                const base::Dims& shape) {
  const base::Dims* shown = problem.size(preset);
  if (!shown) return "no size preset '" + preset + "'";
  if (shape == *shown) return "the shown shape itself";
  for (const auto& [dim, value] : shape) {
    const VaryRule* rule = nullptr;
    for (const auto& r : problem.hidden.vary)
      if (r.dim == dim) rule = &r;
    if (!rule) {
      if (!shown->contains(dim) || shown->at(dim) != value) return "dim " + dim + " changed but may not vary";
      continue;
    }
    auto [lo, hi] = range_of(*rule, shown->at(dim));
    if (value < lo || value > hi || value % rule->multiple_of != 0)
      return "dim " + dim + "=" + std::to_string(value) + " is outside its rule [" + std::to_string(lo) + ", " +
             std::to_string(hi) + "], multiple of " + std::to_string(rule->multiple_of);
  }
  auto at_shown = resolve_inputs(problem, *shown);
  auto at_hidden = resolve_inputs(problem, shape);
  if (!at_shown) return at_shown.error().message;
  if (!at_hidden) return "the inputs do not resolve: " + at_hidden.error().message;
  for (size_t i = 0; i < at_hidden->size(); ++i) {
    const auto& in = (*at_hidden)[i];
    for (auto s : in.shape)
      if (s < 1) return "input " + in.name + " has a size below 1";
    if (in.is_weight && in.shape != (*at_shown)[i].shape)
      return "weight " + in.name + "'s shape moves with a varying dim";
  }
  for (const auto& name : problem.python_init)
    if (shape.contains(name) && shape.at(name) != shown->at(name))
      return "dim " + name + " is an argument of the Python reference's Model, so it may not vary";
  return std::nullopt;
}

std::string describe_hidden_shape(const Problem& problem, const std::string& preset, const base::Dims& shape) {
  const base::Dims* shown = problem.size(preset);
  std::vector<std::string> parts;
  for (const auto& [dim, value] : shape)
    if (!shown || !shown->contains(dim) || shown->at(dim) != value) parts.push_back(dim + "=" + std::to_string(value));
  return base::join(parts, ", ");
}

}  // namespace eval
