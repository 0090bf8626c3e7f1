// refinery-worker: runs one evaluation job in a disposable process.
//
//   refinery-worker JOB.json     judge one job: writes the job's result file
//   refinery-worker --standby START.json
//                                a judge started ahead of its job, whose path comes
//                                on stdin (eval/worker/standby.h)
//   refinery-worker --runner     the sandboxed runner the judge starts (eval/worker/runner.h)
//   refinery-worker --probe      print what this worker can see, as JSON
//
// refinery starts it in a private folder with a scrubbed environment and a
// hard deadline (eval/worker_launcher.h). Exit code 0 once a result is
// written, whatever the verdict; anything else means the driver decides.
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <limits>
#include <string>

#include "base/fs.h"
#include "eval/job.h"
#include "eval/worker/device.h"
#include "eval/worker/run_job.h"
#include "eval/worker/runner.h"
#include "eval/worker/standby.h"

namespace {

// Judges `job` (on `started`, a standby's runner, if given) and writes its result.
int judge(const eval::WorkerJob& job, const std::string& job_path, eval::worker::StartedRunner* started) {
  // No model code runs in this process (it runs in the runner, which cannot
  // see this folder); the job file goes all the same.
  unlink(job_path.c_str());
  eval::Outcome outcome;
  bool standby_lost = false;
  try {
    outcome = eval::worker::run_job(job, started, &standby_lost);
  } catch (const std::exception& e) {
    outcome.status = eval::Status::runtime_error;
    outcome.message = std::string("uncaught exception: ") + e.what();
  }
  if (standby_lost) {
    std::fprintf(stderr, "refinery-worker: the standby's runner ended before its hello: %s\n", outcome.message.c_str());
    _exit(eval::kStandbyUnusedExit);
  }
  auto written = base::write_file_atomic(job.result_path, eval::to_json(outcome).dump(2));
  if (!written) {
    std::fprintf(stderr, "refinery-worker: %s\n", written.error().message.c_str());
    return 3;
  }
  std::fflush(stdout);
  // Skip static destructors: a candidate may have left the runtime in any state.
  _exit(0);
}

}  // namespace

int main(int argc, char** argv) {
  // In the judge and in the runner alike, before either allocates: memory a
  // call's outputs free stays in the process for the next call (allocations
  // up to 32 MiB come from the heap, and the heap is never given back). By
  // default glibc gave a freed top of the heap back past a threshold: a batch
  // of 8 calls freed past it where a batch of 1 did not, every later batch
  // faulted its outputs' pages in again, and on cpu the reference's time per
  // call went from 1.9 to 10.9 ms at level1/19's small size
  // (bench/batch_size.sh). A call's time then depends on the call alone.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  if (argc == 2 && std::string(argv[1]) == "--runner") return eval::worker::runner_main();
  if (argc == 2 && std::string(argv[1]) == "--probe") {
    std::printf("%s\n", eval::worker::probe().dump(2).c_str());
    return 0;
  }
  if (argc == 3 && std::string(argv[1]) == "--standby") {
    auto start = eval::read_job_file(argv[2]);
    if (!start) {
      std::fprintf(stderr, "refinery-worker: %s\n", start.error().message.c_str());
      return 2;
    }
    unlink(argv[2]);
    auto taken = eval::worker::wait_for_job(*start, 0);
    if (!taken) {
      std::fprintf(stderr, "refinery-worker: %s\n", taken.error().message.c_str());
      return eval::kStandbyUnusedExit;
    }
    return judge(taken->job, taken->job_path, &taken->runner);
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: refinery-worker JOB.json | --standby START.json | --probe\n");
    return 2;
  }
  auto job = eval::read_job_file(argv[1]);
  if (!job) {
    std::fprintf(stderr, "refinery-worker: %s\n", job.error().message.c_str());
    return 2;
  }
  return judge(*job, argv[1], nullptr);
}
