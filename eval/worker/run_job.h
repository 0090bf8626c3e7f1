// One evaluation, as the judge runs it (DESIGN.md, "Judge and runner"). The
// judge never loads model code: it draws every input from the hidden seeds,
// runs and times the reference in its own process, and has the candidate run
// in a sandboxed runner (runner_link.h) that reads its inputs from, and copies
// its outputs into, memory both map (arena.h). Then it decides the status from
// what it reads there with its own eyes and clock:
//   - correctness trials: the reference first on the judge's own copy of the
//     inputs, then the candidate on a copy in the arena; outputs compared,
//     inputs checked unchanged;
//   - timing: fresh inputs (new values, alternating between two places) for
//     every timed call, reference and candidate interleaved, a sample of the
//     candidate's timed outputs checked against the reference on the same
//     inputs, and each candidate call bounded below by the judge's clock.
// Progress lines ("candidate trial 2") go to the job's progress file as they
// happen, so that the driver can say where a timeout happened. Main thread only.
#pragma once

#include <memory>
#include <string>

#include "base/cgroup.h"
#include "base/result.h"
#include "eval/job.h"
#include "eval/verdict/outcome.h"
#include "eval/worker/runner_link.h"

namespace eval::worker {

// A runner started from the parts of a job its start needs (the language,
// the scratch size, the memory cgroup; the backend and device come with the
// job), before or without the rest of the job: the judge's first step, and all a standby
// judge does before its job comes (standby.h). It holds no job yet
// (RunnerLink::send_job).
struct StartedRunner {
  std::unique_ptr<base::MemoryCgroup> cgroup;  // the launcher's, joined; outlives the link
  std::unique_ptr<RunnerLink> link;
};
base::Result<StartedRunner> start_runner(const WorkerJob& job, const std::string& root_dir);
// The runner's program for the job's language: refinery-python-runner beside
// this program for Python (an Error where this build has none), else this one.
base::Result<std::string> runner_program(const WorkerJob& job);
// The folder the runner's sandboxed root is built in: beside the job's result, made if missing.
std::string runner_root(const WorkerJob& job);

// Evaluates `job`; with `started`, on that runner (a standby's) rather than a
// new one, and then `standby_lost` says whether it died before its hello
// (before any model code was in it): the outcome is then no verdict, and the
// job is to run afresh (standby.h).
Outcome run_job(const WorkerJob& job, StartedRunner* started = nullptr, bool* standby_lost = nullptr);

}  // namespace eval::worker
