// The attack suite (tests/attack_cases.h) on the cuda backend, at small size.
#include "gpu/gpu_support.h"
#include "memory_cap.h"
#include "test_support.h"

namespace attacks {
test_support::RealEvaluator& evaluator() {
  static test_support::RealEvaluator e(eval::Backend::cuda, 120, gpu_support::probe().arch);
  e.settings.size = eval::Size::small;
  return e;
}
const char* backend() {
  return "cuda";
}
const char* binary() {
  return REFINERY_BINARY_PATH;
}
const char* honest() {
  return "relu_cuda_correct.cu";
}
}  // namespace attacks

#define ATTACK_SUITE "attacks on the verdict - cuda backend"
#include "attack_cases.h"

namespace {

// A cuda evaluator whose runners are capped at 4 GiB by their memory cgroup
// (room for the CUDA context and LibTorch, far less than the hog wants).
test_support::RealEvaluator& capped() {
  static test_support::RealEvaluator e(eval::Backend::cuda, 120, gpu_support::probe().arch, 0, true,
                                       uint64_t{4096} << 20);
  e.settings.size = eval::Size::small;
  return e;
}

}  // namespace

TEST_SUITE("attacks on the verdict - cuda runner's host memory") {
  TEST_CASE(
      "16 GiB of pinned and plain host memory against a 4 GiB cap: a verdict naming the cap, and the judge stands") {
    const auto parent = base::cgroup_parent();
    if (parent.path.empty()) {
      // What a user without a delegated cgroup sees: refinery doctor names it; the runner runs uncapped.
      MESSAGE("SKIPPED: no memory cgroup for the runner here ("
              << parent.why_not << "); run under scripts/own-cgroup.sh or systemd-run --scope -p Delegate=yes");
      return;
    }
    auto o = capped().run("level1/19", fixture("relu_cuda_host_hog.cu"));
    MESSAGE(eval::to_string(o.status) << ": " << o.message);
    memory_cap::check_capped(capped(), o, "host memory touched", 4096, "relu_cuda_correct.cu");
    check_unharmed();
  }
}
