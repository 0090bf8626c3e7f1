// The runner's launch watch: which kernels the candidate's calls launch,
// told apart as its own (a function its library defines, base/elf_symbols.h,
// or a runtime launch whose host stub lies in its library) or another's (PyTorch's, cuBLAS's, cuDNN's), how many
// streams they create, and, on the calls it is asked to trace, how much GPU
// time each side took. It is the evidence behind a cuda verdict's `kernels`
// (docs/integrity.md): a candidate that never ran a kernel of its own is
// "library only".
//
// CUPTI's callback API on the kernel-launch and stream-creation calls of the
// runtime and the driver; a runtime launch that goes on to the driver is
// counted once. What the watch counts lives in the runner, beside model code:
// like the runner's times it is a claim the judge takes, except that a watch
// turned off (cuptiFinalize, cuptiUnsubscribe, a disabled callback) is seen
// by the next take(), and the candidate is rejected for it.
//
// One watch per process (CUPTI allows one subscriber). Callbacks come on any
// thread; start, take and the destructor on the runner's main thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"

namespace profiler {

struct LaunchTally {
  int64_t own = 0;      // launches of the candidate's own kernels
  int64_t other = 0;    // launches of any other kernel
  int64_t graphs = 0;   // graph launches (their kernels are not seen one by one)
  int64_t streams = 0;  // streams created
  // Traced calls (trace()): GPU time of the kernels that ran, from CUPTI's activity records.
  double own_us = 0, other_us = 0;
  std::string top_other;  // the most launched kernel not of its own (demangled), or empty
  int64_t top_other_launches = 0;
};

class LaunchWatch {
 public:
  // `own`: the functions the candidate's library defines, as the file names
  // them (mangled); kernels are matched by their mangled or demangled name.
  static base::Result<std::unique_ptr<LaunchWatch>> start(const std::vector<std::string>& own);
  ~LaunchWatch();

  // Runs `call` with CUPTI's activity records on, adding the GPU time of its
  // kernels (graph-launched ones too) to the tally.
  base::Status trace(const std::function<base::Status()>& call);
  // What was launched since the last take. An Error when the watch is no
  // longer on: something in the process turned CUPTI's callbacks off.
  base::Result<LaunchTally> take();

  // Once the candidate's library is loaded: an address inside it (its entry
  // point). A runtime launch whose host stub lies in that library is its own,
  // whatever the kernel's device name.
  void set_library(const void* address);

  struct State;  // what CUPTI's callback updates (launch_watch.cc)

 private:
  LaunchWatch() = default;
  std::unique_ptr<State> state_;
};

}  // namespace profiler
