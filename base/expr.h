// Integer arithmetic over named dimensions, as written in problem specs:
// "B*C*H*W", "(H - K) / S + 1", "2 * 4 * B * D". Supports + - * / (integer
// division, truncating as in C++, so conv output sizes come out right), %,
// parentheses, and names bound in a Dims map. Overflow is an error.
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/result.h"

namespace base {

using Dims = std::map<std::string, int64_t>;

// Evaluates expr with names taken from dims. Errors name the unknown dim,
// the position of a syntax error, division by zero or overflow.
Result<int64_t> eval_int_expr(const std::string& expr, const Dims& dims);

}  // namespace base
