// Checks shared by the cpu and cuda attack suites for memory no address-space
// cap sees: the runner's memory cgroup must catch it, and the judge must stand;
// and whether this process left any of its cgroups behind.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include "base/cgroup.h"
#include "base/text.h"
#include "test_support.h"

namespace memory_cap {

// The cgroups of `kind` ("runner": the launchers'; "compile": the compile
// steps') this process made, left behind (tests running beside it make
// their own, named by their own pid).
inline int cgroups_left(const std::string& kind = "runner") {
  const std::string mine = "refinery-" + kind + "-" + std::to_string(getpid()) + "-";
  auto parent = base::cgroup_parent();
  int left = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(parent.path, ec), end; !parent.path.empty() && !ec && it != end;
       it.increment(ec))
    left += it->path().filename().string().rfind(mine, 0) == 0;
  return left;
}

// A candidate holding `what` beyond a cap of `cap_mib`: killed at it, or
// refused memory, and in either case a verdict that the judge wrote; then an
// honest candidate on the same evaluator is still correct.
inline void check_capped(test_support::RealEvaluator& evaluator, const eval::Outcome& o, const std::string& what,
                         uint64_t cap_mib, const std::string& honest_fixture) {
  REQUIRE_MESSAGE(o.sandbox.value("memory_cgroup", false), "no memory cgroup here: " << o.sandbox.dump());
  CHECK(o.sandbox.value("memory_cap_bytes", uint64_t{0}) == cap_mib << 20);
  if (o.status == eval::Status::crashed) {
    CHECK_MESSAGE(o.message.find("the runner was killed by SIGKILL") == 0, o.message);
    const std::string cap =
        "at its memory cap (" + base::format_bytes(static_cast<double>(cap_mib << 20)) + ", its cgroup's OOM killer)";
    CHECK_MESSAGE(o.message.find(cap) != std::string::npos, o.message);
  } else {
    REQUIRE_MESSAGE(o.status == eval::Status::runtime_error, o.message);
    REQUIRE(o.message.rfind(what + " ", 0) == 0);
    CHECK_MESSAGE(std::stoull(o.message.substr(what.size() + 1)) <= cap_mib, o.message);
  }
  CHECK(o.phases_ms.contains("runner"));  // the judge's own record of its phases
  auto honest = evaluator.run("level1/19", test_support::fixture(honest_fixture));
  CHECK_MESSAGE(honest.status == eval::Status::correct, honest.message);
  CHECK(cgroups_left() == 0);
}

}  // namespace memory_cap
