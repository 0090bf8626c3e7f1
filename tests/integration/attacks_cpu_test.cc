// The attack suite (tests/attack_cases.h) on the cpu backend.
#include "test_support.h"

namespace attacks {
test_support::RealEvaluator& evaluator() {
  static test_support::RealEvaluator e(eval::Backend::cpu, 60);
  return e;
}
const char* backend() { return "cpu"; }
const char* binary() { return REFINERY_BINARY_PATH; }
const char* honest() { return "relu_correct.cpp"; }
}  // namespace attacks

#define ATTACK_SUITE "attacks on the verdict - cpu backend"
#include "attack_cases.h"
