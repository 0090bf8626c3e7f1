// What every evaluating subcommand sets up from its flags: the problem index,
// the compile service with its cache, the worker launcher, and the backend
// (cuda where the worker sees a GPU, else cpu). Owned by the command's frame.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "agent/args.h"
#include "base/subprocess.h"
#include "eval/compiler.h"
#include "eval/evaluate.h"
#include "eval/problem_index.h"
#include "eval/worker_launcher.h"

namespace agent {

// Flags shared by eval and problems check.
const std::vector<FlagSpec>& eval_flags();

struct Context {
  base::SystemProcessRunner runner;
  std::unique_ptr<eval::ProblemIndex> problems;
  std::unique_ptr<eval::CompileService> compiler;
  std::unique_ptr<eval::WorkerLauncher> launcher;
  std::unique_ptr<eval::Evaluator> evaluator;
  eval::EvalSettings settings;
  std::string hardware;   // "NVIDIA H200: 132 SMs, 140 GiB, 4.8 TB/s peak, 60 MiB L2" or the CPU
  std::string compiler_name;  // "nvcc (sm_90a)" or the C++ compiler
};

// Errors are usage errors (bad flag values) or a worker that cannot start.
base::Result<std::unique_ptr<Context>> make_context(const Args& args);

// Just the problem index, for commands that evaluate nothing.
eval::ProblemIndex problem_index(const Args& args);

}  // namespace agent
