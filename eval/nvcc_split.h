// Runs one nvcc compile with its two front ends in parallel.
//
// nvcc runs its steps one after another: the host branch (preprocess, cudafe++)
// and the device branch (preprocess, cicc, ptxas, fatbinary) each parse the
// whole translation unit, LibTorch's headers included, yet neither needs the
// other; then the host compile, which parses it a third time, includes the
// device branch's fatbinary only to point at it. run_nvcc_split() asks nvcc
// for its plan (--dryrun) and runs the host front end and the host compile
// beside the device branch: the host compile reads a stand-in for the
// fatbinary's C file that declares its data (`fatbinData`) without holding it,
// and once the device branch is done its data is assembled on its own and
// joined to the host object (`ld -r`) before nvcc's device link and final link.
// The stand-in is checked against the real file (everything but the data);
// if they differ (another CUDA version), the host compile is run again on the
// real one, and the stand-in learnt from it. The result reads as nvcc's own:
// exit status, and the diagnostics in nvcc's order (host front end, device,
// host compile).
//
// If the plan does not have the expected shape, it falls back to running nvcc
// as given; a plan without the fatbinary's C file or the host compile runs the
// host compile after both branches, as nvcc does. Thread-safe.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "base/subprocess.h"

namespace eval {

struct NvccPlan {
  std::vector<std::string> env;        // shell assignments nvcc makes first
  std::vector<std::string> host, device, rest;  // commands, in order
  // cudafe++ normally writes the translation unit's module id for cicc to read
  // (it names anonymous-namespace kernels on both sides). Run in parallel, the
  // id is written beforehand instead, and cudafe++ reads it like cicc.
  std::string module_id_path;
  std::string module_id;
  // The host compile of cudafe++'s output (taken out of `rest`), the object it
  // writes and the fatbinary's C file it includes; empty when the plan has no
  // such step, and the host compile stays in `rest`.
  std::string host_compile, host_object, fatbin_c;
};

// Splits nvcc --dryrun output ("#$ ..." lines) into the two branches and the rest;
// an Error when the plan does not have the shape this relies on. `salt` makes
// the module id unique (the compile's key, say).
base::Result<NvccPlan> parse_nvcc_plan(const std::string& dryrun_stderr, const std::string& salt);

// Seconds spent in each part of one compile, for the record: nvcc's plan,
// the host front end (preprocess, cudafe++) then the host compile, beside the
// device branch (preprocess, cicc, ptxas, fatbinary), then the link (the
// fatbinary's data joined to the host object, nvcc's device link and the
// shared library); "host compile and link" after both branches where the
// host compile could not go beside the device branch. `nvcc` alone when the
// plan was not used.
using NvccSteps = std::vector<std::pair<std::string, double>>;

// The stand-in for a fatbinary's C file that the host compile reads while
// the device branch runs (what CUDA 13.0 writes, less the data), and whether
// a real one matches it; exposed for tests.
std::string fatbin_stand_in();
// Replaces the stand-in until a real file is learnt (tests of the fall-back).
void set_fatbin_stand_in(const std::string& stand_in);
bool fatbin_matches_stand_in(const std::string& real_fatbin_c, const std::string& stand_in);
// The data of a real fatbinary C file as a C file of its own whose
// `fatbinData` the host object can link to; an Error when it has no data block.
base::Result<std::string> fatbin_data_source(const std::string& real_fatbin_c);

base::Result<base::ProcessResult> run_nvcc_split(base::ProcessRunner& runner, const base::SpawnOptions& nvcc,
                                                 const std::string& salt, NvccSteps* steps = nullptr);

}  // namespace eval
