#include <ATen/ATen.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "eval/worker/compare.h"

// Last: LibTorch brings glog, whose CHECK aborts the process; doctest's must win.
#include <doctest/doctest.h>

namespace {

using eval::worker::check_no_alias;
using eval::worker::check_structure;
using eval::worker::check_unchanged;
using eval::worker::compare_values;
using eval::worker::within_tolerance;

const eval::Tolerance kTol{1e-3, 1e-2};  // atol, rtol

at::Tensor floats(std::vector<float> values) {
  return at::tensor(values, at::kFloat);
}

// 0, 1, 2, ... 5 as a 2 x 3 float tensor.
at::Tensor two_by_three() {
  return at::arange(6, at::kFloat).reshape({2, 3});
}

}  // namespace

TEST_SUITE("eval::worker::compare_values") {
  TEST_CASE("identical tensors have no mismatches") {
    at::Tensor x = at::randn({4, 8});
    auto d = compare_values(x.clone(), x, kTol, 5);
    CHECK(d.mismatches == 0);
    CHECK(d.elements == 32);
    CHECK(d.max_abs == 0);
    CHECK(d.max_rel == 0);
    CHECK_FALSE(d.nonfinite);
    CHECK(d.first.empty());
  }

  TEST_CASE("counts mismatches and unravels the first ones in 2-D") {
    at::Tensor expected = at::zeros({3, 4});
    at::Tensor actual = expected.clone();
    actual.index_put_({0, 3}, 1.0);
    actual.index_put_({1, 2}, -2.0);
    auto d = compare_values(actual, expected, kTol, 5);
    CHECK(d.mismatches == 2);
    CHECK(d.elements == 12);
    CHECK(d.max_abs == doctest::Approx(2.0));
    REQUIRE(d.first.size() == 2);
    CHECK((d.first[0].index == std::vector<int64_t>{0, 3}));
    CHECK(d.first[0].expected == 0.0);
    CHECK(d.first[0].actual == 1.0);
    CHECK((d.first[1].index == std::vector<int64_t>{1, 2}));
    CHECK(d.first[1].expected == 0.0);
    CHECK(d.first[1].actual == -2.0);
  }

  TEST_CASE("unravels indices in 3-D") {
    at::Tensor expected = at::zeros({2, 3, 4});
    at::Tensor actual = expected.clone();
    actual.index_put_({1, 2, 3}, 5.0);
    auto d = compare_values(actual, expected, kTol, 5);
    REQUIRE(d.first.size() == 1);
    CHECK((d.first[0].index == std::vector<int64_t>{1, 2, 3}));
  }

  TEST_CASE("reports at most max_reported mismatches but counts them all") {
    at::Tensor expected = at::zeros({10});
    at::Tensor actual = at::ones({10});
    auto d = compare_values(actual, expected, kTol, 3);
    CHECK(d.mismatches == 10);
    REQUIRE(d.first.size() == 3);
    CHECK((d.first[0].index == std::vector<int64_t>{0}));
    CHECK((d.first[2].index == std::vector<int64_t>{2}));
  }

  TEST_CASE("values within atol + rtol*|expected| pass and values beyond fail") {
    // For expected 100 the bound is 1e-3 + 1e-2 * 100 = 1.001.
    auto within = compare_values(floats({100.9f}), floats({100.0f}), kTol, 5);
    CHECK(within.mismatches == 0);
    CHECK(within.max_abs == doctest::Approx(0.9).epsilon(1e-4));
    CHECK(within.max_rel == doctest::Approx(0.009).epsilon(1e-3));
    auto beyond = compare_values(floats({101.1f}), floats({100.0f}), kTol, 5);
    CHECK(beyond.mismatches == 1);
    // For expected 0 only atol applies.
    CHECK(compare_values(floats({0.0009f}), floats({0.0f}), kTol, 5).mismatches == 0);
    CHECK(compare_values(floats({0.0011f}), floats({0.0f}), kTol, 5).mismatches == 1);
  }

  TEST_CASE("the tolerance is relative to the expected value, not the actual") {
    // |a-b| = 0.5 is within 0.6*|1.0| but not within 0.6*|0.5|.
    const eval::Tolerance relative{0, 0.6};
    CHECK(compare_values(floats({0.5f}), floats({1.0f}), relative, 5).mismatches == 0);
    CHECK(compare_values(floats({1.0f}), floats({0.5f}), relative, 5).mismatches == 1);
  }

  TEST_CASE("NaN where the reference has NaN passes") {
    auto d = compare_values(floats({1.0f, NAN}), floats({1.0f, NAN}), kTol, 5);
    CHECK(d.mismatches == 0);
    CHECK_FALSE(d.nonfinite);
  }

  TEST_CASE("NaN where the reference has a number fails and is flagged non-finite") {
    auto d = compare_values(floats({1.0f, NAN, 3.0f}), floats({1.0f, 2.0f, 3.0f}), kTol, 5);
    CHECK(d.mismatches == 1);
    CHECK(d.nonfinite);
    REQUIRE(d.first.size() == 1);
    CHECK((d.first[0].index == std::vector<int64_t>{1}));
    CHECK(d.first[0].expected == 2.0);
    CHECK(std::isnan(d.first[0].actual));
  }

  TEST_CASE("Inf where the reference has a number fails and is flagged non-finite") {
    auto d = compare_values(floats({INFINITY}), floats({2.0f}), kTol, 5);
    CHECK(d.mismatches == 1);
    CHECK(d.nonfinite);
  }

  TEST_CASE("a number where the reference has NaN fails") {
    auto d = compare_values(floats({2.0f}), floats({NAN}), kTol, 5);
    CHECK(d.mismatches == 1);
  }

  TEST_CASE("+inf against +inf passes") {
    auto d = compare_values(floats({INFINITY, -INFINITY}), floats({INFINITY, -INFINITY}), kTol, 5);
    CHECK(d.mismatches == 0);
    CHECK_FALSE(d.nonfinite);
    CHECK(d.max_abs == 0);
  }

  TEST_CASE("a finite value where the reference has +inf fails") {
    CHECK(compare_values(floats({1.0f}), floats({INFINITY}), kTol, 5).mismatches == 1);
  }

  TEST_CASE("-inf where the reference has +inf fails") {
    CHECK(compare_values(floats({-INFINITY}), floats({INFINITY}), kTol, 5).mismatches == 1);
  }

  TEST_CASE("int64 tensors compare exactly, whatever the tolerance") {
    at::Tensor expected = at::tensor(std::vector<int64_t>{int64_t{1} << 60, 5, -3});
    CHECK(compare_values(expected.clone(), expected, {1e9, 1}, 5).mismatches == 0);
    at::Tensor actual = expected.clone();
    actual.index_put_({0}, (int64_t{1} << 60) + 1);
    actual.index_put_({2}, -2);
    auto d = compare_values(actual, expected, {1e9, 1}, 5);
    CHECK(d.mismatches == 2);
    REQUIRE(d.first.size() == 2);
    CHECK((d.first[0].index == std::vector<int64_t>{0}));
    CHECK((d.first[1].index == std::vector<int64_t>{2}));
    CHECK(d.first[1].expected == -3.0);
    CHECK(d.first[1].actual == -2.0);
  }

  TEST_CASE("half precision is compared in float") {
    at::Tensor expected = at::tensor({1.0f, 2.0f}).to(at::kHalf);
    at::Tensor actual = at::tensor({1.0f, 2.5f}).to(at::kHalf);
    auto d = compare_values(actual, expected, kTol, 5);
    CHECK(d.mismatches == 1);
    REQUIRE(d.first.size() == 1);
    CHECK(d.first[0].expected == 2.0);
    CHECK(d.first[0].actual == 2.5);
  }

  TEST_CASE("a non-contiguous actual is compared by logical index") {
    at::Tensor expected = two_by_three().t().contiguous();  // 3 x 2
    at::Tensor actual = two_by_three().t();                 // same values, strided
    CHECK(compare_values(actual, expected, kTol, 5).mismatches == 0);
  }
}

TEST_SUITE("eval::worker::within_tolerance") {
  // The timed calls' check asks within_tolerance first and compare_values only
  // where it says no: the two must agree on every kind of element.
  TEST_CASE("agrees with compare_values on the edge cases, in every dtype and layout") {
    const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
    const std::vector<std::pair<float, float>> pairs = {{1.0f, 1.0f},      {1.0f, 1.0f + 0.5e-2f},
                                                        {1.0f, 1.02f},     {0.0f, 0.9e-3f},
                                                        {0.0f, 2e-3f},     {nan, nan},
                                                        {nan, 1.0f},       {1.0f, nan},
                                                        {inf, inf},        {-inf, inf},
                                                        {1.0f, inf},       {inf, 1.0f},
                                                        {-5.0f, -5.04f},   {-5.0f, -5.2f},
                                                        {1e30f, 1.001e30f}};
    for (const auto& [a, e] : pairs) {
      for (auto dtype : {at::kFloat, at::kDouble, at::kHalf}) {
        at::Tensor actual = floats({a}).to(dtype), expected = floats({e}).to(dtype);
        const bool pass = compare_values(actual, expected, kTol, 1).mismatches == 0;
        CHECK_MESSAGE(within_tolerance(actual, expected, kTol) == pass, a, " against ", e, " in ", dtype);
      }
    }
    // Many elements, one bad one far in (past the first chunk's start), and a transposed actual.
    at::Tensor e = at::randn({64, 300});
    at::Tensor a = e.clone();
    CHECK(within_tolerance(a, e, kTol));
    a[63][299] = 10.0f;
    CHECK_FALSE(within_tolerance(a, e, kTol));
    CHECK(within_tolerance(e.t().contiguous().t(), e, kTol));
    CHECK_FALSE(within_tolerance(e.reshape({300, 64}), e, kTol));  // another shape
  }

  TEST_CASE("integers must be equal") {
    at::Tensor e = at::arange(10, at::kLong);
    CHECK(within_tolerance(e.clone(), e, kTol));
    at::Tensor a = e.clone();
    a[3] = 4;
    CHECK_FALSE(within_tolerance(a, e, kTol));
  }
}

TEST_SUITE("eval::worker::check_structure") {
  TEST_CASE("matching outputs pass") {
    CHECK_FALSE(check_structure({at::zeros({2, 3})}, {at::ones({2, 3})}).has_value());
    CHECK_FALSE(check_structure({}, {}).has_value());
  }

  TEST_CASE("names a shape difference") {
    CHECK(check_structure({at::zeros({2, 3})}, {at::zeros({3, 2})}) ==
          std::optional<std::string>("output 0 has shape [2, 3], expected [3, 2]"));
    CHECK(check_structure({at::zeros({4}), at::zeros({2, 3})}, {at::zeros({4}), at::zeros({6})}) ==
          std::optional<std::string>("output 1 has shape [2, 3], expected [6]"));
  }

  TEST_CASE("names a dtype difference") {
    CHECK(check_structure({at::zeros({2}, at::kDouble)}, {at::zeros({2}, at::kFloat)}) ==
          std::optional<std::string>("output 0 has dtype float64, expected float32"));
    CHECK(check_structure({at::zeros({2}, at::kInt)}, {at::zeros({2}, at::kLong)}) ==
          std::optional<std::string>("output 0 has dtype int32, expected int64"));
  }

  TEST_CASE("names a count difference") {
    CHECK(check_structure({at::zeros({2})}, {at::zeros({2}), at::zeros({2})}) ==
          std::optional<std::string>("forward returned 1 tensors, expected 2"));
  }

  TEST_CASE("names an undefined output") {
    CHECK(check_structure({at::Tensor()}, {at::zeros({2})}) ==
          std::optional<std::string>("output 0 is an undefined tensor"));
  }
}

TEST_SUITE("eval::worker::check_unchanged") {
  TEST_CASE("untouched inputs pass") {
    at::Tensor x = at::randn({3, 3});
    CHECK_FALSE(check_unchanged({x}, {x.clone()}, {"x"}).has_value());
  }

  TEST_CASE("names the input the candidate modified") {
    at::Tensor x = at::randn({3, 3}), w = at::randn({3});
    at::Tensor pristine_x = x.clone(), pristine_w = w.clone();
    w.index_put_({1}, 42.0);
    CHECK(check_unchanged({x, w}, {pristine_x, pristine_w}, {"x", "weight"}) ==
          std::optional<std::string>("forward changed its input 'weight'; inputs must be left unchanged"));
  }

  TEST_CASE("a resized input counts as changed") {
    at::Tensor x = at::zeros({4});
    at::Tensor pristine = x.clone();
    x.resize_({2});
    CHECK(check_unchanged({x}, {pristine}, {"x"}).has_value());
  }

  TEST_CASE("an untouched input holding NaN passes") {
    at::Tensor x = floats({1.0f, NAN});
    CHECK_FALSE(check_unchanged({x}, {x.clone()}, {"x"}).has_value());
  }
}

TEST_SUITE("eval::worker::check_no_alias") {
  TEST_CASE("an output that is a view of an input is caught") {
    at::Tensor x = at::randn({2, 3}), y = at::randn({3});
    CHECK(check_no_alias({x.view(-1)}, {y, x}, {"y", "x"}) ==
          std::optional<std::string>("output 0 shares memory with input 'x'; return a new tensor"));
  }

  TEST_CASE("an output that is a slice of an input is caught") {
    at::Tensor x = at::randn({8});
    CHECK(check_no_alias({at::zeros({1}), x.narrow(0, 4, 2)}, {x}, {"x"}) ==
          std::optional<std::string>("output 1 shares memory with input 'x'; return a new tensor"));
  }

  TEST_CASE("the input itself returned is caught") {
    at::Tensor x = at::randn({4});
    CHECK(check_no_alias({x}, {x}, {"x"}).has_value());
  }

  TEST_CASE("a clone passes") {
    at::Tensor x = at::randn({2, 3});
    CHECK_FALSE(check_no_alias({x.clone().view(-1)}, {x}, {"x"}).has_value());
  }
}

TEST_SUITE("eval::worker::describe") {
  TEST_CASE("gives shape and dtype") {
    CHECK(eval::worker::describe(at::zeros({4, 8})) == "[4, 8] float32");
    CHECK(eval::worker::describe(at::zeros({3}, at::kLong)) == "[3] int64");
    CHECK(eval::worker::describe(at::zeros({2, 1, 5}, at::kHalf)) == "[2, 1, 5] float16");
    CHECK(eval::worker::describe(at::zeros({}, at::kBFloat16)) == "[] bfloat16");
    CHECK(eval::worker::describe(at::Tensor()) == "undefined");
  }
}
