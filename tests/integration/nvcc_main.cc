// The nvcc tests: run only where this build found nvcc; elsewhere print why
// and exit 77, which ctest reports as skipped.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include "eval/build/compiler.h"

int main(int argc, char** argv) {
  if (eval::build_toolchain().nvcc.empty()) {
    std::printf("SKIPPED: this build found no nvcc (the CUDA toolkit), so the cuda backend cannot compile\n");
    return 77;  // ctest's SKIP_RETURN_CODE for this test
  }
  doctest::Context context(argc, argv);
  return context.run();
}
