// The attack suite (tests/attack_cases.h) on the cpu backend.
#include "memory_cap.h"
#include "test_support.h"

namespace attacks {
test_support::RealEvaluator& evaluator() {
  static test_support::RealEvaluator e(eval::Backend::cpu, 60);
  return e;
}
const char* backend() {
  return "cpu";
}
const char* binary() {
  return REFINERY_BINARY_PATH;
}
const char* honest() {
  return "relu_correct.cpp";
}
}  // namespace attacks

#define ATTACK_SUITE "attacks on the verdict - cpu backend"
#include "attack_cases.h"

namespace {

// An evaluator whose runners are capped at 512 MiB by their memory cgroup (no address-space cap).
test_support::RealEvaluator& capped() {
  static test_support::RealEvaluator e(eval::Backend::cpu, 60, "90a", 0, true, uint64_t{512} << 20);
  return e;
}

// A capped candidate's verdict, then the honest and wrong candidates on both evaluators.
void check_capped(const eval::Outcome& o, const std::string& what) {
  memory_cap::check_capped(capped(), o, what, 512, "relu_correct.cpp");
  check_unharmed();
}

}  // namespace

TEST_SUITE("attacks on the verdict - memory no address-space cap sees") {
  TEST_CASE("2 GiB in a memfd (fallocate) against a 512 MiB cap: a verdict naming the cap, and the judge stands") {
    auto o = capped().run("level1/19", fixture("relu_memfd_hog.cpp"));
    MESSAGE(eval::to_string(o.status) << ": " << o.message);
    check_capped(o, "memfd held");
  }

  TEST_CASE("2 GiB of SysV shared memory, attached and touched, against a 512 MiB cap: the same") {
    auto o = capped().run("level1/19", fixture("relu_shm_hog.cpp"));
    MESSAGE(eval::to_string(o.status) << ": " << o.message);
    check_capped(o, "shm touched");
  }
}
