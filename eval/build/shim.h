// The generated entry point appended to every compiled candidate and
// reference, so that the worker loads any of them the same way.
//
// The shim defines one C function, kEntrySymbol, that takes the inputs as a
// std::vector<at::Tensor> (scalars as 0-dim CPU tensors), calls forward()
// with the spec's parameters in order, flattens what it returns (a tensor, a
// tuple or pair of tensors, or a vector of tensors) into an output vector, and
// turns any exception into an error string. Pure text generation.
#pragma once

#include <string>

#include "eval/problems/problem.h"

namespace eval {

inline constexpr const char* kEntrySymbol = "refinery_entry_v1";

// The C signature of the entry point, as the worker calls it:
//   int entry(const std::vector<at::Tensor>* inputs, std::vector<at::Tensor>* outputs,
//             char* error, unsigned long error_size);   // 0 on success
std::string make_shim(const Problem& problem);

}  // namespace eval
