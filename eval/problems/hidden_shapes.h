// Hidden shapes: other sizes of a problem than the one its prompt shows,
// drawn from rules in its spec, so that a campaign can check that a kernel
// computes the operation and not the one shape it was shown (issue 36).
//
// A spec says which dims may change and how, or why none may:
//
//   hidden_shapes:
//     vary:
//       B: {min: 1}                   # drawn between min and the shown value
//       H: {min: 8, multiple_of: 2}   # max: the shown value unless given lower
//   hidden_shapes:
//     fixed: a Linear's in_features is C*H*W, and the batch is 1 by definition
//
// A hidden shape draws every varying dim log-uniformly in [min, max] (max:
// the shown value, so a hidden shape never costs more memory than the shown
// one), rounded down to multiple_of (and up to min), until the shape differs
// from the shown one. Dims a weight's shape depends on never vary: the rules
// are checked against every drawn shape (hidden_shape_problem). Pure
// functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/expr.h"
#include "base/result.h"

namespace eval {

struct Problem;

struct VaryRule {
  std::string dim;
  int64_t min = 1;
  std::optional<int64_t> max;  // default: the shown value
  int64_t multiple_of = 1;
};

struct HiddenShapeRules {
  bool declared = false;       // the spec has a hidden_shapes section
  std::vector<VaryRule> vary;  // empty: no dim may change
  std::string fixed;           // why none may (when vary is empty)
  bool varies() const { return !vary.empty(); }
};

// `n` hidden shapes of `problem` at size `preset` (its dims with the varying
// ones redrawn), from `seed`; the same seed gives the same shapes. An error
// when the problem's rules cannot vary it at that size.
base::Result<std::vector<base::Dims>> draw_hidden_shapes(const Problem& problem, const std::string& preset, int n,
                                                         uint64_t seed);

// Why a drawn shape is not a valid hidden shape of `problem` at `preset`: it
// equals the shown one, a dim is outside its rule, a weight's shape differs
// from the shown size's, or an input does not resolve (a size below 1). None
// when it is valid.
std::optional<std::string> hidden_shape_problem(const Problem& problem, const std::string& preset,
                                                const base::Dims& shape);

// "B=37, H=20": the dims a hidden shape changed, as verdicts name it.
std::string describe_hidden_shape(const Problem& problem, const std::string& preset, const base::Dims& shape);

}  // namespace eval
