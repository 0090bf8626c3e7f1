// How refinery-python-runner loads a Python candidate (language.h,
// Loader::python): an interpreter embedded in the runner, in the runner's
// sandbox and under its syscall filter, so that a Python candidate is timed,
// checked and watched exactly as a C++ one is (the same requests, the same
// arena, the same device). The judge and refinery-worker hold no Python:
// refinery-worker's runner answers a Python candidate with a load error that
// names this program.
//
// start() comes first, before the runner has its job, its device or its
// candidate: it starts the interpreter on the sys.path refinery was built
// with and runs python_prelude.py (which imports torch; no model code), so
// that a runner started ahead of its job (a standby, eval/worker/standby.h)
// has paid for it. The candidate comes later, as its build's bundle
// (eval/build/python_bundle.h) on a descriptor the judge sends: open() reads
// it, puts each library its build made into a sealed memfd (so the launch
// watch can read their functions before any of them runs) and Triton's cache
// files into a folder of the runner's /tmp that Triton is pointed at; load()
// imports the module with its load_inline calls answered from those
// libraries, builds ModelNew with the problem's dims on the job's device and
// finds the parameters the judge's weights go to (by the reference's names,
// else by order). call() binds the
// call's weights (Tensor.data, no copy), passes tensors through DLPack (no
// copy) and scalars as Python numbers, and takes back a tensor or a tuple
// of them.
#pragma once

#include <ATen/core/Tensor.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/result.h"

namespace eval::worker {

class PythonCandidate {
 public:
  virtual ~PythonCandidate() = default;
  // The descriptors of the libraries the build made, and the names of the
  // module's Triton kernels (its @triton.jit functions): its own kernels, for
  // the launch watch.
  virtual const std::vector<int>& library_fds() const = 0;
  virtual std::vector<std::string> triton_kernels() const = 0;
  // Starts the interpreter and imports torch (no model code, no device): the
  // runner does it first thing, before its job comes.
  virtual base::Status start() = 0;
  // Reads the candidate's bundle on `bundle_fd` (after start(), once the
  // runner's device is set up: Triton is told where its libcuda is).
  virtual base::Status open(int bundle_fd) = 0;
  // job: the runner's job (runner.h: backend, device, inputs with their
  // weight names, init).
  virtual base::Status load(const nlohmann::json& job) = 0;
  // One forward on the call's inputs, in the job's order (weights included).
  virtual base::Status call(const std::vector<at::Tensor>& in, std::vector<at::Tensor>& out) = 0;
};

using MakePython = std::unique_ptr<PythonCandidate> (*)();

// refinery-python-runner's: an interpreter not yet started.
std::unique_ptr<PythonCandidate> make_python_candidate();

}  // namespace eval::worker
