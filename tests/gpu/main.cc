// GPU tests: run only where refinery-worker sees a CUDA device; elsewhere
// (CI, laptops) print why and exit 77, which ctest reports as skipped.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "gpu/gpu_support.h"

int main(int argc, char** argv) {
  auto gpu = gpu_support::probe();
  if (!gpu.available) {
    std::printf("SKIPPED: tests/gpu need a CUDA GPU visible to refinery-worker (%s)\n", gpu.why.c_str());
    return 77;  // ctest's SKIP_RETURN_CODE for this test
  }
  std::printf("tests/gpu on %s (sm_%s)\n", gpu.name.c_str(), gpu.arch.c_str());
  doctest::Context context(argc, argv);
  return context.run();
}
