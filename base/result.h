// Result<T> and Error: how every expected failure in refinery travels.
//
// A function that can fail in an expected way (a bad config key, a compile
// error, a missing file, an HTTP 429) returns Result<T>; exceptions are kept
// for programming errors. Error carries a human-readable message whose first
// line names what failed and where (file:line:col for configs). Only main and
// the worker's top frame turn an Error into an exit code or a result record.
// Values are plain data: safe to move between threads, not to share mutably.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace base {

// What kind of failure an Error is; a command's exit code follows it
// (exit_code below): the command line was wrong, the work could not be done,
// or the user stopped it.
enum class ErrorKind { failed, usage, interrupted };

struct Error {
  std::string message;
  ErrorKind kind = ErrorKind::failed;
  // Prefixes context: Error{"x"}.wrap("loading p") -> "loading p: x"; the kind stays.
  Error wrap(const std::string& context) const { return Error{context + ": " + message, kind}; }
};

inline Error usage_error(std::string message) {
  return Error{std::move(message), ErrorKind::usage};
}

// The exit code of a command that ended on `e`: 1 could not be done, 2 usage,
// 130 interrupted (as a shell reports SIGINT). 0 is a command that did its job.
inline int exit_code(const Error& e) {
  switch (e.kind) {
    case ErrorKind::usage:
      return 2;
    case ErrorKind::interrupted:
      return 130;
    case ErrorKind::failed:
      break;
  }
  return 1;
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<0>(v_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(v_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(v_));
  }
  const Error& error() const {
    assert(!ok());
    return std::get<1>(v_);
  }

  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Error> v_;
};

// Result<void>: success carries nothing.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const {
    assert(!ok_);
    return error_;
  }

 private:
  Error error_;
  bool ok_ = true;
};

using Status = Result<void>;

}  // namespace base

#define REFINERY_CONCAT_INNER(a, b) a##b
#define REFINERY_CONCAT(a, b) REFINERY_CONCAT_INNER(a, b)

// TRY_ASSIGN(lhs, expr): evaluates a Result, returns its Error from the
// enclosing function on failure, else move-assigns the value to lhs.
#define TRY_ASSIGN(lhs, expr) TRY_ASSIGN_IMPL(REFINERY_CONCAT(try_result_, __LINE__), lhs, expr)
#define TRY_ASSIGN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                    \
  if (!tmp.ok()) return tmp.error();    \
  lhs = std::move(tmp).value()

// TRY(expr): for Status-returning calls.
#define TRY(expr)                                                                                            \
  do {                                                                                                       \
    auto REFINERY_CONCAT(try_status_, __LINE__) = (expr);                                                    \
    if (!REFINERY_CONCAT(try_status_, __LINE__).ok()) return REFINERY_CONCAT(try_status_, __LINE__).error(); \
  } while (0)
