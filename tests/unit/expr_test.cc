#include <doctest/doctest.h>

#include <string>

#include "base/expr.h"

namespace {

// The value of expr, failing the test with the error if there is one.
int64_t value_of(const std::string& expr, const base::Dims& dims = {}) {
  auto r = base::eval_int_expr(expr, dims);
  INFO("expression: ", expr);
  REQUIRE_MESSAGE(r.ok(), r.error().message);
  return *r;
}

// The error message for expr, failing the test if it evaluates.
std::string error_of(const std::string& expr, const base::Dims& dims = {}) {
  auto r = base::eval_int_expr(expr, dims);
  INFO("expression: ", expr);
  REQUIRE_FALSE_MESSAGE(r.ok(), "evaluated to ", r.ok() ? *r : 0);
  return r.error().message;
}

}  // namespace

TEST_SUITE("base::eval_int_expr") {
  TEST_CASE("evaluates integer literals") {
    CHECK(value_of("0") == 0);
    CHECK(value_of("42") == 42);
    CHECK(value_of("  7  ") == 7);
    CHECK(value_of("9223372036854775807") == INT64_MAX);
  }

  TEST_CASE("multiplication binds tighter than addition") {
    CHECK(value_of("2 + 3 * 4") == 14);
    CHECK(value_of("2 * 3 + 4") == 10);
    CHECK(value_of("10 - 6 / 2") == 7);
    CHECK(value_of("1 + 7 % 4") == 4);
  }

  TEST_CASE("operators of one level associate to the left") {
    CHECK(value_of("10 - 3 - 2") == 5);
    CHECK(value_of("64 / 4 / 2") == 8);
    CHECK(value_of("100 % 7 * 2") == 4);
  }

  TEST_CASE("parentheses override precedence") {
    CHECK(value_of("(2 + 3) * 4") == 20);
    CHECK(value_of("2 * (3 + 4)") == 14);
    CHECK(value_of("((1 + 1) * (2 + 2))") == 8);
    CHECK(value_of("(10 - (3 - 2))") == 9);
  }

  TEST_CASE("names are looked up in the dims") {
    base::Dims dims = {{"B", 4}, {"C", 3}, {"H", 32}, {"W", 16}, {"K", 3}, {"S", 2}, {"head_dim", 64}};
    CHECK(value_of("B*C*H*W", dims) == 4 * 3 * 32 * 16);
    CHECK(value_of("(H - K) / S + 1", dims) == 15);
    CHECK(value_of("2 * 4 * B * head_dim", dims) == 2048);
    CHECK(value_of("B", dims) == 4);
  }

  TEST_CASE("unary minus negates, also twice and before parentheses") {
    CHECK(value_of("-5") == -5);
    CHECK(value_of("--5") == 5);
    CHECK(value_of("-(2 + 3)") == -5);
    CHECK(value_of("3 * -2") == -6);
    CHECK(value_of("4 - -1") == 5);
    CHECK(value_of("-B", {{"B", 8}}) == -8);
  }

  TEST_CASE("division truncates toward zero and % keeps the dividend's sign") {
    CHECK(value_of("-7 / 2") == -3);
    CHECK(value_of("-7 % 3") == -1);
    CHECK(value_of("7 % -3") == 1);
  }

  TEST_CASE("an unknown dim is named with its column") {
    CHECK(error_of("B*Q", {{"B", 2}}) == "in expression 'B*Q' at column 3: unknown dim 'Q'");
    CHECK(error_of("B * seq_len", {{"B", 2}, {"seq", 3}}) ==
          "in expression 'B * seq_len' at column 5: unknown dim 'seq_len'");
    CHECK(error_of("X") == "in expression 'X' at column 1: unknown dim 'X'");
  }

  TEST_CASE("dims are case sensitive") {
    CHECK(error_of("b", {{"B", 2}}) == "in expression 'b' at column 1: unknown dim 'b'");
  }

  TEST_CASE("division by zero is an error") {
    CHECK(error_of("B / 0", {{"B", 2}}) == "in expression 'B / 0' at column 6: division by zero");
    CHECK(error_of("7 % (B - 2)", {{"B", 2}}) == "in expression '7 % (B - 2)' at column 12: division by zero");
  }

  TEST_CASE("overflow is an error") {
    CHECK(error_of("9223372036854775807 + 1") == "in expression '9223372036854775807 + 1' at column 24: overflow");
    CHECK(error_of("-9223372036854775807 - 2") == "in expression '-9223372036854775807 - 2' at column 25: overflow");
    CHECK(error_of("B * B * B", {{"B", int64_t{1} << 21}}) == "in expression 'B * B * B' at column 10: overflow");
    CHECK(error_of("99999999999999999999") == "in expression '99999999999999999999' at column 19: overflow");
  }

  TEST_CASE("trailing garbage is an error") {
    CHECK(error_of("B*C)", {{"B", 1}, {"C", 1}}) == "in expression 'B*C)' at column 4: unexpected ')'");
    CHECK(error_of("2 3") == "in expression '2 3' at column 3: unexpected '3'");
    CHECK(error_of("4 # comment") == "in expression '4 # comment' at column 3: unexpected '#'");
  }

  TEST_CASE("syntax errors name the column") {
    CHECK(error_of("") == "in expression '' at column 1: unexpected end");
    CHECK(error_of("2 *") == "in expression '2 *' at column 4: unexpected end");
    CHECK(error_of("(2 + 3") == "in expression '(2 + 3' at column 7: expected ')'");
    CHECK(error_of("2 + * 3") == "in expression '2 + * 3' at column 5: unexpected '*'");
  }

  TEST_CASE("dividing the smallest value by -1 is an overflow error") {
    CHECK(error_of("(-9223372036854775807 - 1) / -1") ==
          "in expression '(-9223372036854775807 - 1) / -1' at column 32: overflow");
  }

  TEST_CASE("negating the smallest value is an overflow error") {
    auto r = base::eval_int_expr("-(-9223372036854775807 - 1)", {});
    CHECK_FALSE(r.ok());
  }

  TEST_CASE("division truncates, as conv output sizes need") {
    CHECK(*base::eval_int_expr("7 / 2", {}) == 3);
    CHECK(*base::eval_int_expr("(32 - 3) / 2 + 1", {}) == 15);
  }
}
