// The exploit catalogue (tests/integrity_cases.h) on the cuda backend, at full
// size (where a degenerate workload's skipped GEMM is worth a quarantine).
#include "gpu/gpu_support.h"
#include "test_support.h"

namespace integrity {
test_support::RealEvaluator& evaluator() {
  static test_support::RealEvaluator e(eval::Backend::cuda, 120, gpu_support::probe().arch);
  return e;
}
const char* backend() {
  return "cuda";
}
}  // namespace integrity

#define INTEGRITY_SUITE "integrity - cuda backend"
#include "integrity_cases.h"
