// Correctness checks of one trial: the candidate's outputs against the
// reference's (shape, dtype, device, then values with |a-b| <= atol+rtol*|b|,
// NaN/Inf only where the reference has them), and the harness's rules:
// inputs unchanged, outputs not sharing storage with inputs.
// Comparison runs on the device in chunks, so a 6 GiB output needs little
// extra memory. Worker main thread only.
#pragma once

#include <ATen/core/Tensor.h>

#include <optional>
#include <string>
#include <vector>

#include "eval/problems/dtype.h"
#include "eval/verdict/outcome.h"

namespace eval::worker {

// A message when outputs differ in count, definedness, device, dtype or shape.
std::optional<std::string> check_structure(const std::vector<at::Tensor>& actual,
                                           const std::vector<at::Tensor>& expected);

// Whether every element of `actual` is within tolerance of `expected`, by the
// rule compare_values applies, in fewer passes over memory (isclose): the
// timed calls' checks ask only this, and compare_values says how they differ.
bool within_tolerance(const at::Tensor& actual, const at::Tensor& expected, const Tolerance& tol);

TrialDiff compare_values(const at::Tensor& actual, const at::Tensor& expected, const Tolerance& tol, int max_reported);

// A message when the candidate changed one of its inputs.
std::optional<std::string> check_unchanged(const std::vector<at::Tensor>& after,
                                           const std::vector<at::Tensor>& pristine,
                                           const std::vector<std::string>& names);

// A message when an output shares storage with an input.
std::optional<std::string> check_no_alias(const std::vector<at::Tensor>& outputs, const std::vector<at::Tensor>& inputs,
                                          const std::vector<std::string>& names);

std::string describe(const at::Tensor& t);  // "[4, 8] float32"

}  // namespace eval::worker
