// The exploit catalogue (tests/integrity_cases.h) on the cpu backend.
#include "test_support.h"

namespace integrity {
test_support::RealEvaluator& evaluator() {
  static test_support::RealEvaluator e(eval::Backend::cpu, 60);
  return e;
}
const char* backend() {
  return "cpu";
}
}  // namespace integrity

#define INTEGRITY_SUITE "integrity - cpu backend"
#include "integrity_cases.h"
