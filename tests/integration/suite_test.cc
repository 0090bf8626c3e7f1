// The live suite under problems/: every spec loads and resolves both sizes.
// (Each reference is compiled and run by `refinery problems check`.)
#include <doctest/doctest.h>

#include "eval/problems/problem.h"
#include "eval/problems/problem_index.h"

TEST_SUITE("problems/ suite") {
  TEST_CASE("every problem in the suite loads, with both size presets") {
    eval::ProblemIndex index(eval::default_problems_root());
    auto all = index.list();
    REQUIRE_MESSAGE(all.ok(), (all.ok() ? "" : all.error().message));
    CHECK(all->size() == 250);  // KernelBench's levels 1-3, all of them
    for (const auto& p : *all) {
      CAPTURE(p.id);
      CHECK(eval::resolve_inputs(p, "small").ok());
      CHECK(eval::resolve_inputs(p, "full").ok());
    }
  }
}
