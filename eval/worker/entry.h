// The entry point the shim exports (eval/build/shim.h), as the judge and the runner
// call it: inputs in, outputs out, an exception's message as an Error.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/core/grad_mode.h>

#include <vector>

#include "base/result.h"

namespace eval::worker {

using Entry = int (*)(const void* inputs, void* outputs, char* error, unsigned long error_size);

// Calls `entry` without autograd; `out` holds what forward returned.
inline base::Status invoke(Entry entry, const std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) {
  out.clear();
  char error[4096] = {0};
  at::NoGradGuard no_grad;
  if (entry(&in, &out, error, sizeof error) != 0) return base::Error{error[0] ? error : "forward failed"};
  return {};
}

}  // namespace eval::worker
