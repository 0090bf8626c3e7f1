// The attack suite (tests/attack_cases.h) on the cpu backend.
#include <unistd.h>

#include "base/cgroup.h"
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

namespace {

// An evaluator whose runners are capped at 512 MiB by their memory cgroup (no address-space cap).
test_support::RealEvaluator& capped() {
  static test_support::RealEvaluator e(eval::Backend::cpu, 60, "90a", 0, true, uint64_t{512} << 20);
  return e;
}

// The runner's cgroups this process's launchers made, left behind (tests
// running beside it make their own, named by their own pid).
int runner_cgroups_left() {
  const std::string mine = "refinery-runner-" + std::to_string(getpid()) + "-";
  auto parent = base::find_cgroup_parent();
  int left = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(parent.path, ec), end; !parent.path.empty() && !ec && it != end;
       it.increment(ec))
    left += it->path().filename().string().rfind(mine, 0) == 0;
  return left;
}

// A candidate holding `what` beyond the cap: killed at it, or refused memory,
// and in either case a verdict that the judge wrote; then the host is fine.
void check_capped(const eval::Outcome& o, const std::string& what) {
  REQUIRE_MESSAGE(o.sandbox.value("memory_cgroup", false), "no memory cgroup here: " << o.sandbox.dump());
  CHECK(o.sandbox.value("memory_cap_bytes", uint64_t{0}) == uint64_t{512} << 20);
  if (o.status == Status::crashed) {
    CHECK_MESSAGE(o.message.find("the runner was killed by SIGKILL") == 0, o.message);
    CHECK_MESSAGE(o.message.find("at its memory cap (512.0 MiB, its cgroup's OOM killer)") != std::string::npos, o.message);
  } else {
    REQUIRE_MESSAGE(o.status == Status::runtime_error, o.message);
    REQUIRE(o.message.rfind(what + " ", 0) == 0);
    CHECK_MESSAGE(std::stoi(o.message.substr(what.size() + 1)) <= 512, o.message);
  }
  CHECK(o.phases_ms.contains("runner"));  // the judge's own record of its phases
  auto honest = capped().run("level1/19", fixture("relu_correct.cpp"));
  CHECK_MESSAGE(honest.status == Status::correct, honest.message);
  check_unharmed();
  CHECK(runner_cgroups_left() == 0);
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
