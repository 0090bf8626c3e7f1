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

#include "eval/job.h"
#include "eval/verdict/outcome.h"

namespace eval::worker {

Outcome run_job(const WorkerJob& job);

}  // namespace eval::worker
