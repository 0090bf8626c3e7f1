// What every evaluating subcommand sets up: the problem index, the compile
// service with its cache, the worker launcher, and the backend (cuda where
// the worker sees a GPU, else cpu). It is built from eval::EvalSettings,
// which the command line and a config's eval: section both decode into
// through one key table (agent/eval_keys.h); make_context resolves what was
// asked as `auto` against the machine. Owned by the command's frame.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/cli/args.h"
#include "agent/eval_keys.h"
#include "base/subprocess.h"
#include "eval/build/compiler.h"
#include "eval/evaluate.h"
#include "eval/problems/problem_index.h"
#include "eval/worker_launcher.h"

namespace agent {

struct Context {
  base::SystemProcessSpawner spawner;
  std::unique_ptr<eval::ProblemIndex> problems;
  std::unique_ptr<eval::CompileService> compiler;
  std::unique_ptr<eval::WorkerLauncher> launcher;
  std::unique_ptr<eval::Evaluator> evaluator;
  eval::EvalSettings settings;  // as asked, with backend, size, profile and threads resolved
  std::string hardware;         // "NVIDIA H200: 132 SMs, 140 GiB, 4.8 TB/s peak, 60 MiB L2" or the CPU
  std::string compiler_name;    // "nvcc (sm_90a)" or the C++ compiler
  std::vector<int> devices;     // the GPUs (cuda) or runner slots (cpu) the evaluator leases
};

// An Error is a setting the machine cannot honour (ncu missing) or a worker
// that cannot start. `secret_names`: variables whose values are secrets
// whatever their names (a config's models' api_key_env), besides those named
// like one (base/redact.h).
base::Result<std::unique_ptr<Context>> make_context(const eval::EvalSettings& settings,
                                                    const std::vector<std::string>& secret_names = {});

// Just the problem index, for commands that evaluate nothing.
eval::ProblemIndex problem_index(const std::string& problems_dir);

}  // namespace agent
