// The runner: the only process that loads model code (DESIGN.md, "Judge and
// runner"). `refinery-worker --runner`, started by the judge inside the
// sandbox (eval/sandbox/sandbox.h) with two descriptors:
//   3  the control block (channel.h)
//   4  a socket that brings, in two messages: first the runner's job (a
//      memfd of JSON: backend, language, device, threads, inputs without
//      seeds, metrics) with the candidate (a sealed memfd the judge checked
//      against the compile cache's digest); then, once the reference has
//      shaped the outputs, the arena (arena.h). Closed after the arena.
// It may be started before its job exists (a standby judge's, standby.h): a
// Python runner (`make_python` given) starts its interpreter and imports
// torch first, holding no job, no device and no model code; then it waits
// for the job, sets up its device and the launch watch, reads the
// candidate's bundle, installs the syscall filter and says so (its hello).
// The C++ runner does the same with its job at once. Then it takes the arena
// when the judge sends it, loads the candidate when told to (by its
// language's loader, eval/build/language.h), and serves the judge's
// requests until told to exit. It holds nothing worth forging: no reference,
// no seeds, no result file. What it replies is a claim the judge checks.
#pragma once

#include <nlohmann/json.hpp>

#include "eval/job.h"
#include "eval/worker/python_loader.h"

namespace eval::worker {

inline constexpr int kControlFd = 3, kRunnerSocketFd = 4;

// The runner's job, as the judge writes it.
nlohmann::json runner_job(const WorkerJob& job);

// The runner's main; returns its exit code. `make_python` loads Python
// candidates: refinery-python-runner's; refinery-worker's runner has none.
int runner_main(MakePython make_python = nullptr);

}  // namespace eval::worker
