// Closed sets as tables: an array of rows, each with a `name` (as configs,
// flags and records spell it) beside whatever the code dispatches on. A name
// is looked up in its table and gives its row, or an error naming every
// allowed one; never a default. Header-only; the tables are constant data,
// safe to read from any thread.
#pragma once

#include <cassert>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/text.h"

namespace base {

// Whether each row's `id` (an enum) has the value of its index, so that the
// table may be indexed by the enum: static_assert it beside the table.
template <class Row, size_t N>
constexpr bool in_enum_order(const Row (&rows)[N]) {
  for (size_t i = 0; i < N; ++i)
    if (static_cast<size_t>(rows[i].id) != i) return false;
  return true;
}

// The row of `id` in a table in_enum_order.
template <class Row, size_t N, class Enum>
const Row& row_at(const Row (&rows)[N], Enum id) {
  assert(static_cast<size_t>(id) < N);
  return rows[static_cast<size_t>(id)];
}

// The rows' names, in table order.
template <class Row>
std::vector<std::string> row_names(std::span<const Row> rows) {
  std::vector<std::string> names;
  for (const Row& row : rows) names.emplace_back(row.name);
  return names;
}

// The row named `name`, or "unknown WHAT 'NAME' (expected one of: a, b, c)".
template <class Row>
Result<const Row*> find_row(std::span<const Row> rows, std::string_view name, std::string_view what) {
  for (const Row& row : rows)
    if (name == row.name) return &row;
  return Error{"unknown " + std::string(what) + " '" + std::string(name) +
               "' (expected one of: " + join(row_names(rows), ", ") + ")"};
}

}  // namespace base
