// Runs one nvcc compile with its two front ends in parallel.
//
// nvcc runs its steps one after another: the host branch (preprocess, cudafe++)
// and the device branch (preprocess, cicc, ptxas, fatbinary) each parse the
// whole translation unit, LibTorch's headers included, yet neither needs the
// other; only the final host compile needs both (it includes the stub file
// that cicc, not cudafe++, writes: it cannot start before the device branch). run_nvcc_split() asks nvcc
// for its plan (--dryrun), runs the two branches at once, then the rest,
// cutting a cold compile of a LibTorch candidate by about a third. The result
// reads as nvcc's own: exit status, and the diagnostics of the branch that
// failed (the host front end's first, as nvcc would print them).
//
// If the plan does not have the expected shape (another CUDA version), it
// falls back to running nvcc as given. Thread-safe.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "base/subprocess.h"

namespace eval {

struct NvccPlan {
  std::vector<std::string> env;                 // shell assignments nvcc makes first
  std::vector<std::string> host, device, rest;  // commands, in order
  // cudafe++ normally writes the translation unit's module id for cicc to read
  // (it names anonymous-namespace kernels on both sides). Run in parallel, the
  // id is written beforehand instead, and cudafe++ reads it like cicc.
  std::string module_id_path;
  std::string module_id;
};

// Splits nvcc --dryrun output ("#$ ..." lines) into the two branches and the rest;
// an Error when the plan does not have the shape this relies on. `salt` makes
// the module id unique (the compile's key, say).
base::Result<NvccPlan> parse_nvcc_plan(const std::string& dryrun_stderr, const std::string& salt);

// Seconds spent in each part of one compile, for the record: nvcc's plan,
// the host front end (preprocess, cudafe++), the device branch (preprocess,
// cicc, ptxas, fatbinary), run at once, then the host compile and link.
// `nvcc` alone when the plan was not used.
using NvccSteps = std::vector<std::pair<std::string, double>>;

base::Result<base::ProcessResult> run_nvcc_split(base::ProcessSpawner& spawner, const base::SpawnOptions& nvcc,
                                                 const std::string& salt, NvccSteps* steps = nullptr);

}  // namespace eval
