#include "eval/problems/dtype.h"

namespace eval {
namespace {
struct Entry {
  DType dtype;
  const char* name;
};
constexpr Entry kEntries[] = {
    {DType::float32, "float32"}, {DType::float16, "float16"}, {DType::bfloat16, "bfloat16"},
    {DType::float64, "float64"}, {DType::int64, "int64"},     {DType::int32, "int32"},
    {DType::boolean, "bool"},
};
}  // namespace

std::string to_string(DType dtype) {
  for (const auto& e : kEntries)
    if (e.dtype == dtype) return e.name;
  return "?";
}

std::optional<DType> parse_dtype(const std::string& name) {
  for (const auto& e : kEntries)
    if (name == e.name) return e.dtype;
  return std::nullopt;
}

const std::vector<std::string>& dtype_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& e : kEntries) out.push_back(e.name);
    return out;
  }();
  return names;
}

bool is_floating(DType dtype) {
  return dtype == DType::float32 || dtype == DType::float16 || dtype == DType::bfloat16 || dtype == DType::float64;
}

namespace {
constexpr Entry kPrecisions[] = {{DType::float32, "fp32"}, {DType::float16, "fp16"}, {DType::bfloat16, "bf16"}};
}  // namespace

std::optional<DType> parse_precision(const std::string& name) {
  for (const auto& e : kPrecisions)
    if (name == e.name) return e.dtype;
  return std::nullopt;
}

std::string precision_name(DType dtype) {
  for (const auto& e : kPrecisions)
    if (e.dtype == dtype) return e.name;
  return to_string(dtype);
}

const std::vector<std::string>& precision_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& e : kPrecisions) out.push_back(e.name);
    return out;
  }();
  return names;
}

Tolerance default_tolerance(DType dtype) {
  switch (dtype) {
    case DType::float32:
      return {1e-4, 1e-4};
    case DType::float16:
    case DType::bfloat16:
      return {1e-2, 1e-2};
    case DType::float64:
      return {1e-7, 1e-7};
    default:
      return {0, 0};
  }
}

}  // namespace eval
