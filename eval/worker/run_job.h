// One evaluation inside refinery-worker: load the reference and candidate
// libraries, run the correctness trials (candidate first, on clones, fresh
// inputs per trial), then the interleaved timing, and produce the Outcome.
// Progress lines ("candidate trial 2") go to the job's progress file as they
// happen, unbuffered, so that the driver can say where a crash happened.
// Worker main thread only; a CUDA fault ends the process after the result is
// written, never before.
#pragma once

#include "eval/job.h"
#include "eval/outcome.h"

namespace eval::worker {

Outcome run_job(const WorkerJob& job);

}  // namespace eval::worker
