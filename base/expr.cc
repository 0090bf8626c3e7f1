#include "base/expr.h"

#include <cctype>
#include <cstdint>

namespace base {
namespace {

class Parser {
 public:
  Parser(const std::string& text, const Dims& dims) : s_(text), dims_(dims) {}

  Result<int64_t> parse() {
    TRY_ASSIGN(int64_t value, sum());
    skip_space();
    if (pos_ != s_.size()) return fail("unexpected '" + std::string(1, s_[pos_]) + "'");
    return value;
  }

 private:
  Error fail(const std::string& what) const {
    return Error{"in expression '" + s_ + "' at column " + std::to_string(pos_ + 1) + ": " + what};
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  Result<int64_t> sum() {
    TRY_ASSIGN(int64_t left, product());
    while (true) {
      bool plus = eat('+');
      if (!plus && !eat('-')) return left;
      TRY_ASSIGN(int64_t right, product());
      int64_t out;
      if (plus ? __builtin_add_overflow(left, right, &out) : __builtin_sub_overflow(left, right, &out))
        return fail("overflow");
      left = out;
    }
  }

  Result<int64_t> product() {
    TRY_ASSIGN(int64_t left, unary());
    while (true) {
      char op = 0;
      for (char c : {'*', '/', '%'})
        if (!op && eat(c)) op = c;
      if (!op) return left;
      TRY_ASSIGN(int64_t right, unary());
      if (op == '*') {
        if (__builtin_mul_overflow(left, right, &left)) return fail("overflow");
      } else {
        if (right == 0) return fail("division by zero");
        if (right == -1 && left == INT64_MIN) return fail("overflow");
        left = op == '/' ? left / right : left % right;
      }
    }
  }

  Result<int64_t> unary() {
    if (eat('-')) {
      TRY_ASSIGN(int64_t v, unary());
      if (v == INT64_MIN) return fail("overflow");
      return -v;
    }
    return atom();
  }

  Result<int64_t> atom() {
    skip_space();
    if (eat('(')) {
      TRY_ASSIGN(int64_t v, sum());
      if (!eat(')')) return fail("expected ')'");
      return v;
    }
    if (pos_ >= s_.size()) return fail("unexpected end");
    char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[pos_] - '0', &v)) return fail("overflow");
        ++pos_;
      }
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
      std::string name = s_.substr(start, pos_ - start);
      auto it = dims_.find(name);
      if (it == dims_.end()) {
        pos_ = start;
        return fail("unknown dim '" + name + "'");
      }
      return it->second;
    }
    return fail("unexpected '" + std::string(1, c) + "'");
  }

  const std::string& s_;
  const Dims& dims_;
  size_t pos_ = 0;
};

}  // namespace

Result<int64_t> eval_int_expr(const std::string& expr, const Dims& dims) {
  return Parser(expr, dims).parse();
}

}  // namespace base
