// Hidden shapes (eval/problems/hidden_shapes.h): the rules of every spec in
// problems/ draw valid shapes that differ from the shown one and keep every
// weight's shape; a spec's rules are checked where it is loaded.
#include <doctest/doctest.h>

#include <fstream>
#include <set>

#include "eval/problems/hidden_shapes.h"
#include "eval/problems/problem.h"
#include "eval/problems/problem_index.h"
#include "test_support.h"

namespace {

// A copy of level1/19's spec with `hidden` appended, loaded from a temporary folder.
base::Result<eval::Problem> relu_with(const test_support::TempDir& dir, const std::string& hidden,
                                      const std::string& extra_input = "") {
  std::string spec = R"(name: relu
level: 1
number: 19
inputs:
  - name: x
    dtype: float32
    shape: [B, D]
    draw: {normal: {mean: 0, std: 1}}
)" + extra_input + R"(sizes:
  full: {B: 4096, D: 393216}
  small: {B: 256, D: 16384}
)" + hidden;
  std::ofstream(dir.path + "/spec.yaml") << spec;
  std::ofstream(dir.path + "/reference.cpp") << "// unused\n";
  return eval::load_problem(dir.path);
}

}  // namespace

TEST_SUITE("eval::hidden_shapes") {
  TEST_CASE("every spec's rules: drawn shapes valid, different from the shown one, weights fixed") {
    auto all = eval::ProblemIndex(eval::default_problems_root()).list();
    REQUIRE(all.ok());
    int varying = 0, fixed = 0, silent = 0;
    std::vector<std::string> undeclared;
    std::set<std::string> unmovable_small;
    for (const auto& p : *all) {
      if (!p.hidden.varies()) {
        if (p.hidden.declared) {
          ++fixed;
          CHECK_MESSAGE(!p.hidden.fixed.empty(), p.id);
        } else {
          ++silent;
          undeclared.push_back(p.id);
        }
        continue;
      }
      ++varying;
      for (const std::string size : {"small", "full"}) {
        for (uint64_t seed : {1, 2, 3}) {
          auto shapes = eval::draw_hidden_shapes(p, size, 3, seed);
          // A rule may pin every dim at the small size (a batch already at its minimum): the
          // evaluation then checks the shown size only, and says so. Never at the full size.
          if (!shapes.ok() && size == "small" &&
              shapes.error().message.find("no dim of its hidden_shapes rules can change") != std::string::npos) {
            unmovable_small.insert(p.id);
            continue;
          }
          REQUIRE_MESSAGE(shapes.ok(), p.id, " at ", size, ": ", (shapes.ok() ? "" : shapes.error().message));
          REQUIRE(shapes->size() == 3);
          for (const auto& d : *shapes) {
            auto why = eval::hidden_shape_problem(p, size, d);
            CHECK_MESSAGE(!why, p.id, " at ", size, " (", eval::describe_hidden_shape(p, size, d), "): ", *why);
          }
          // The same seed draws the same shapes.
          CHECK(*eval::draw_hidden_shapes(p, size, 3, seed) == *shapes);
        }
      }
    }
    MESSAGE(varying, " problems vary, ", fixed, " are fixed, ", silent, " have no rules; at the small size ",
            unmovable_small.size(),
            " cannot move: ", base::join({unmovable_small.begin(), unmovable_small.end()}, ", "));
    CHECK(unmovable_small == std::set<std::string>{"level3/29"});
    CHECK_MESSAGE(silent == 0, "no hidden_shapes rules: ", base::join(undeclared, ", "));
  }

  TEST_CASE("draws: within the rule, rounded to multiple_of, never the shown shape, and spread over the range") {
    test_support::TempDir dir("refinery-hidden");
    auto p = relu_with(dir, "hidden_shapes:\n  vary:\n    B: {min: 8, max: 64, multiple_of: 8}\n");
    REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
    auto shapes = eval::draw_hidden_shapes(*p, "small", 200, 7);
    REQUIRE(shapes.ok());
    std::set<int64_t> seen;
    for (const auto& d : *shapes) {
      const int64_t b = d.at("B");
      CHECK(b >= 8);
      CHECK(b <= 64);
      CHECK(b % 8 == 0);
      CHECK(d.at("D") == 16384);  // not a varying dim
      seen.insert(b);
    }
    CHECK(seen.size() == 8);  // 8, 16, ..., 64: every value drawn at least once in 200
    CHECK(eval::describe_hidden_shape(*p, "small", shapes->front()) == "B=" + std::to_string(shapes->front().at("B")));
    // Another seed, other shapes.
    CHECK(*eval::draw_hidden_shapes(*p, "small", 200, 8) != *shapes);
    // The validity check refuses what the rule does not allow.
    base::Dims shown = *p->size("small");
    CHECK(eval::hidden_shape_problem(*p, "small", shown) == std::optional<std::string>("the shown shape itself"));
    base::Dims odd = shown;
    odd["B"] = 12;
    CHECK(eval::hidden_shape_problem(*p, "small", odd)->find("outside its rule") != std::string::npos);
    base::Dims moved = shown;
    moved["B"] = 16;
    moved["D"] = 3;
    CHECK(eval::hidden_shape_problem(*p, "small", moved)->find("dim D changed but may not vary") != std::string::npos);
  }

  TEST_CASE("a spec's rules are checked where it loads: weights' dims, unknown dims, both or neither") {
    test_support::TempDir dir("refinery-hidden-bad");
    const std::string weight =
        "  - name: w\n    role: weight\n    dtype: float32\n    shape: [D]\n"
        "    draw: {normal: {}}\n";
    auto by_weight = relu_with(dir, "hidden_shapes:\n  vary:\n    D: {min: 1}\n", weight);
    REQUIRE_FALSE(by_weight.ok());
    CHECK(by_weight.error().message.find("weight 'w' changes shape with D") != std::string::npos);
    auto unknown = relu_with(dir, "hidden_shapes:\n  vary:\n    T: {min: 1}\n");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().message.find("'T' is not a dim of size") != std::string::npos);
    auto both = relu_with(dir, "hidden_shapes:\n  vary:\n    B: {}\n  fixed: no\n");
    REQUIRE_FALSE(both.ok());
    CHECK(both.error().message.find("not both") != std::string::npos);
    auto neither = relu_with(dir, "hidden_shapes: {}\n");
    REQUIRE_FALSE(neither.ok());
    CHECK(neither.error().message.find("needs 'vary'") != std::string::npos);
    auto fixed = relu_with(dir, "hidden_shapes:\n  fixed: the mask has a fixed length\n");
    REQUIRE(fixed.ok());
    CHECK_FALSE(fixed->hidden.varies());
    auto drawn = eval::draw_hidden_shapes(*fixed, "full", 1, 1);
    REQUIRE_FALSE(drawn.ok());
    CHECK(drawn.error().message.find("the mask has a fixed length") != std::string::npos);
    // A rule whose range holds only the shown value cannot vary the problem at that size.
    auto pinned = relu_with(dir, "hidden_shapes:\n  vary:\n    B: {min: 256}\n");
    REQUIRE(pinned.ok());
    CHECK_FALSE(eval::draw_hidden_shapes(*pinned, "small", 1, 1).ok());
    CHECK(eval::draw_hidden_shapes(*pinned, "full", 1, 1).ok());
  }
}
