// The element types a problem's tensors may have, and their default
// correctness tolerances (DESIGN.md: fp32 1e-4, fp16/bf16 1e-2; integers and
// bool compare exactly). Pure data; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace eval {

enum class DType { float32, float16, bfloat16, float64, int64, int32, boolean };

std::string to_string(DType dtype);
std::optional<DType> parse_dtype(const std::string& name);
const std::vector<std::string>& dtype_names();
bool is_floating(DType dtype);

// eval.precision's names for the dtypes a run may cast float32 inputs to:
// fp32, fp16, bf16 (KernelBench's `precision` option).
std::optional<DType> parse_precision(const std::string& name);
std::string precision_name(DType dtype);  // "fp32", "fp16", "bf16"; to_string for any other
const std::vector<std::string>& precision_names();

struct Tolerance {
  double atol = 1e-4;
  double rtol = 1e-4;
};

// |a-b| <= atol + rtol*|b| elementwise; the defaults for outputs of `dtype`.
Tolerance default_tolerance(DType dtype);

}  // namespace eval
