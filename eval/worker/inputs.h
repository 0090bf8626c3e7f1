// Draws a job's inputs from a seed, directly on the evaluation device, in the
// order the spec lists them. Scalars become 0-dim CPU tensors (the shim reads
// them with item()). Worker main thread only: seeds LibTorch's global
// generators.
#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

#include "eval/problems/problem.h"

namespace eval::worker {

at::ScalarType scalar_type(DType dtype);

std::vector<at::Tensor> draw_inputs(const std::vector<ResolvedInput>& specs, uint64_t seed, const at::Device& device);

// A scalar input as the shim reads it: a 0-dim CPU tensor of its dtype.
at::Tensor scalar_input(const ResolvedInput& in);

// Deep copies (same values, same strides), for handing to the candidate.
std::vector<at::Tensor> clone_all(const std::vector<at::Tensor>& tensors);

}  // namespace eval::worker
