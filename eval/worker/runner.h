// The runner: the only process that loads model code (DESIGN.md, "Judge and
// runner"). `refinery-worker --runner`, started by the judge inside the
// sandbox (base/sandbox.h) with four descriptors:
//   3  the control block (channel.h)     4  the arena (arena.h)
//   5  the candidate library, sealed     6  the runner's job (JSON: backend,
//      memfd the judge checked against       device, threads, inputs without
//      the compile cache's digest            seeds, arena size, metrics)
// It sets up its device and the arena, installs the syscall filter, says so,
// and only then loads the candidate; then it serves the judge's requests
// until told to exit. It holds nothing worth forging: no reference, no seeds,
// no result file. What it replies is a claim the judge checks.
#pragma once

#include <nlohmann/json.hpp>

#include "eval/job.h"

namespace eval::worker {

inline constexpr int kControlFd = 3, kArenaFd = 4, kCandidateFd = 5, kRunnerJobFd = 6;

// The runner's job, as the judge writes it.
nlohmann::json runner_job(const WorkerJob& job, uint64_t arena_bytes);

// The runner's main; returns its exit code.
int runner_main();

}  // namespace eval::worker
