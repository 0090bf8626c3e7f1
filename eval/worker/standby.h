// A standby judge: `refinery-worker --standby START.json`, started by
// refinery's launcher (eval/worker_launcher.h) before it has a job, so that
// the runner's start (the process, LibTorch, a Python runner's interpreter and
// its `import torch`) is done when the job comes.
//
// START.json is a WorkerJob that holds what the runner's start needs (the
// candidate's language, threads, the scratch size, the runner's memory
// cgroup), the backend and device the job will have, and the job's result
// and progress paths; nothing else of it is read. The standby starts its
// runner at once (start_runner: no job, no candidate, no device), then blocks,
// without polling, until its stdin brings one line, the path of the job's
// file, or its runner dies. The job must match what the standby was started
// for (standby_mismatch); then it is judged as a job given on the command
// line is, on that runner. The runner never holds model code before its one
// job, and serves only that one.
//
// Ending without judging the job (refinery closed the hand-off, the runner
// died before its hello, the job did not match) writes no result, with exit
// code kStandbyUnusedExit (eval/job.h) and why on stderr: the launcher then
// evaluates the job with a fresh judge. Main thread only.
#pragma once

#include <string>

#include "base/result.h"
#include "eval/job.h"
#include "eval/worker/run_job.h"

namespace eval::worker {

// Why `job` cannot run on a standby started for `start` ("the job's backend
// is cpu, the standby's cuda"), or empty when it can.
std::string standby_mismatch(const WorkerJob& start, const WorkerJob& job);

struct StandbyJob {
  WorkerJob job;
  std::string job_path;
  StartedRunner runner;
};

// Starts the runner for `start` and waits for the job's path on `handoff_fd`;
// an Error when the standby ends without a job it can judge.
base::Result<StandbyJob> wait_for_job(const WorkerJob& start, int handoff_fd);

}  // namespace eval::worker
