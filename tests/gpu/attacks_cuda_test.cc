// The attack suite (tests/attack_cases.h) on the cuda backend, at small size.
#include "gpu/gpu_support.h"
#include "test_support.h"

namespace attacks {
test_support::RealEvaluator& evaluator() {
  static test_support::RealEvaluator e(eval::Backend::cuda, 120, gpu_support::probe().arch);
  e.settings.size = "small";
  return e;
}
const char* backend() { return "cuda"; }
const char* binary() { return REFINERY_BINARY_PATH; }
const char* honest() { return "relu_cuda_correct.cu"; }
}  // namespace attacks

#define ATTACK_SUITE "attacks on the verdict - cuda backend"
#include "attack_cases.h"
