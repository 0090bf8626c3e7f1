// refinery-worker: runs one evaluation job in a disposable process.
//
//   refinery-worker JOB.json     judge one job: writes the job's result file
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
  if (argc != 2) {
    std::fprintf(stderr, "usage: refinery-worker JOB.json | --probe\n");
    return 2;
  }
  auto text = base::read_file(argv[1]);
  if (!text) {
    std::fprintf(stderr, "refinery-worker: %s\n", text.error().message.c_str());
    return 2;
  }
  auto parsed = nlohmann::json::parse(*text, nullptr, false);
  if (parsed.is_discarded()) {
    std::fprintf(stderr, "refinery-worker: %s is not JSON\n", argv[1]);
    return 2;
  }
  auto job = eval::job_from_json(parsed);
  if (!job) {
    std::fprintf(stderr, "refinery-worker: %s\n", job.error().message.c_str());
    return 2;
  }
  // No model code runs in this process (it runs in the runner, which cannot
  // see this folder); the job file goes all the same.
  unlink(argv[1]);
  eval::Outcome outcome;
  try {
    outcome = eval::worker::run_job(*job);
  } catch (const std::exception& e) {
    outcome.status = eval::Status::runtime_error;
    outcome.message = std::string("uncaught exception: ") + e.what();
  }
  auto written = base::write_file_atomic(job->result_path, eval::to_json(outcome).dump(2));
  if (!written) {
    std::fprintf(stderr, "refinery-worker: %s\n", written.error().message.c_str());
    return 3;
  }
  std::fflush(stdout);
  // Skip static destructors: a candidate may have left the runtime in any state.
  _exit(0);
}
