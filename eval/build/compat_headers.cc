#include "eval/build/compat_headers.h"

namespace eval {
namespace {

// Shared by the three: pybind11 as a name only, so that `namespace py =
// pybind11;` and a PYBIND11_MODULE body still parse, and the one error says
// what to remove.
constexpr const char* kNoPython = R"(// refinery: candidates are loaded without Python, and forward() is called
// with tensors directly; nothing here binds a Python module.
#pragma once
namespace pybind11 {
struct refinery_no_python {
  template <class... A> refinery_no_python(A&&...) {}
  template <class... A> refinery_no_python& def(A&&...) { return *this; }
  template <class T> refinery_no_python& operator=(T&&) { return *this; }
};
using module_ = refinery_no_python;
using module = refinery_no_python;
using arg = refinery_no_python;
}  // namespace pybind11
namespace py = pybind11;
#ifndef PYBIND11_MODULE
#define PYBIND11_MODULE(name, variable)                                                            \
  static_assert(sizeof(#name) == 0,                                                                \
                "refinery: error: remove PYBIND11_MODULE(...) { ... }: refinery loads the "         \
                "candidate without Python and calls forward() directly");                          \
  [[maybe_unused]] static void refinery_pybind11_module_body(::pybind11::module_& variable)
#endif
#ifndef TORCH_EXTENSION_NAME
#define TORCH_EXTENSION_NAME refinery_candidate
#endif
)";

constexpr const char* kExtension = R"(// refinery's <torch/extension.h>: LibTorch's C++ API as <torch/torch.h> gives
// it, the CUDA helpers load_inline sources use (under nvcc), and the CHECK_*
// macros of KernelBench's prompts; no Python (see refinery/no_python.h).
#pragma once
#include <torch/torch.h>
#include <refinery/cuda_helpers.h>
#include "refinery/no_python.h"
#ifndef CHECK_CUDA
#define CHECK_CUDA(x) TORCH_CHECK(x.device().is_cuda(), #x " must be a CUDA tensor")
#endif
#ifndef CHECK_CONTIGUOUS
#define CHECK_CONTIGUOUS(x) TORCH_CHECK(x.is_contiguous(), #x " must be contiguous")
#endif
#ifndef CHECK_INPUT
#define CHECK_INPUT(x) CHECK_CUDA(x); CHECK_CONTIGUOUS(x)
#endif
)";

// Lean headers (eval/build/lean_headers.h) put an empty one first on the include
// path for a source that names none of these.
constexpr const char* kCudaHelpers =
    R"(// refinery: the CUDA helpers of <torch/extension.h> (under nvcc, with a CUDA build of LibTorch).
#pragma once
#if defined(__CUDACC__) && __has_include(<c10/cuda/impl/cuda_cmake_macros.h>)  // a CUDA build of LibTorch
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime.h>
#endif
)";

constexpr const char* kPython = R"(// refinery's <torch/python.h>: no Python here (see refinery/no_python.h).
#pragma once
#include <torch/torch.h>
#include "refinery/no_python.h"
)";

constexpr const char* kPybind = R"(// refinery's <pybind11/pybind11.h>: no Python here (see refinery/no_python.h).
#pragma once
#include "refinery/no_python.h"
)";

}  // namespace

const std::vector<CompatHeader>& compat_headers() {
  static const std::vector<CompatHeader> headers = {
      {"refinery/no_python.h", kNoPython}, {"torch/extension.h", kExtension}, {"refinery/cuda_helpers.h", kCudaHelpers},
      {"torch/python.h", kPython},         {"pybind11/pybind11.h", kPybind},
  };
  return headers;
}

}  // namespace eval
