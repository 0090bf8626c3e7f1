// Headers refinery puts ahead of LibTorch's on every compile's include path,
// so that sources written for torch.utils.cpp_extension.load_inline compile
// as they are: <torch/extension.h> means <torch/torch.h> plus the CUDA stream
// and context helpers (under nvcc) and KernelBench's CHECK_* macros, without
// Python; <torch/python.h> and <pybind11/pybind11.h> declare an empty
// pybind11; PYBIND11_MODULE is one clear error. Pure text.
#pragma once

#include <string>
#include <vector>

namespace eval {

struct CompatHeader {
  std::string path;  // relative to the include folder, e.g. "torch/extension.h"
  std::string text;
};

const std::vector<CompatHeader>& compat_headers();

}  // namespace eval
