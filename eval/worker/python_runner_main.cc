// refinery-python-runner: the runner (runner.h) with an interpreter, for
// Python candidates (python_loader.h). The judge starts it as it starts
// `refinery-worker --runner`, with the same descriptors and protocol; it is
// the only refinery program that links Python.
//
//   refinery-python-runner --runner
#include <malloc.h>

#include <cstdio>
#include <limits>
#include <string>

#include "eval/worker/python_loader.h"
#include "eval/worker/runner.h"

int main(int argc, char** argv) {
  // As refinery-worker's main does, for the same reason (eval/worker/main.cc).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
  if (argc == 2 && std::string(argv[1]) == "--runner")
    return eval::worker::runner_main(eval::worker::make_python_candidate);
  std::fprintf(stderr, "usage: refinery-python-runner --runner (the judge starts it)\n");
  return 2;
}
