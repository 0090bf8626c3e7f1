// The runner: the only process that loads model code (DESIGN.md, "Judge and
// runner"). `refinery-worker --runner`, started by the judge inside the
// sandbox (eval/sandbox/sandbox.h) with four descriptors:
//   3  the control block (channel.h)     4  a socket the arena's descriptor
//   5  the candidate library, sealed        (arena.h) comes over, once the
//      memfd the judge checked against      reference has shaped the outputs
//      the compile cache's digest        6  the runner's job (JSON: backend,
//                                           language, device, threads,
//                                           inputs without seeds, metrics)
// The judge starts it first thing, so that its start (the process, LibTorch,
// the device's context) overlaps the judge's own. It sets up its device,
// installs the syscall filter and says so; then it takes the arena when the
// judge sends it, loads the candidate when told to (by its language's
// loader, eval/build/language.h), and serves the judge's
// requests until told to exit. It holds nothing worth forging: no reference,
// no seeds, no result file. What it replies is a claim the judge checks.
#pragma once

#include <nlohmann/json.hpp>

#include "eval/job.h"
#include "eval/worker/python_loader.h"

namespace eval::worker {

inline constexpr int kControlFd = 3, kArenaSocketFd = 4, kCandidateFd = 5, kRunnerJobFd = 6;

// The runner's job, as the judge writes it.
nlohmann::json runner_job(const WorkerJob& job);

// The runner's main; returns its exit code. `open_python` loads Python
// candidates: refinery-python-runner's; refinery-worker's runner has none.
int runner_main(OpenPython open_python = nullptr);

}  // namespace eval::worker
