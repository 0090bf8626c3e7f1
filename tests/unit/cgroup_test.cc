#include <doctest/doctest.h>

#include <string>

#include "base/cgroup.h"

namespace {

const char* kV1Mounts =
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
const char* kV1Self = "8:pids:/\n4:memory:/process_api/9dbd\n1:cpu:/\n0::/\n";

const char* kV2Mounts =
    "24 30 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
    "27 24 0:25 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate\n";

}  // namespace

TEST_SUITE("base::parse_cgroup_parent") {
  TEST_CASE("cgroup v1: this process's memory cgroup in the memory hierarchy") {
    auto p = base::parse_cgroup_parent(kV1Self, kV1Mounts);
    CHECK(p.path == "/sys/fs/cgroup/memory/process_api/9dbd");
    CHECK(p.version == 1);
  }

  TEST_CASE("cgroup v2: this process's cgroup under the unified mount") {
    auto p = base::parse_cgroup_parent("0::/user.slice/user-0.slice/session-3.scope\n", kV2Mounts);
    CHECK(p.path == "/sys/fs/cgroup/user.slice/user-0.slice/session-3.scope");
    CHECK(p.version == 2);
    auto root = base::parse_cgroup_parent("0::/\n", kV2Mounts);
    CHECK(root.path == "/sys/fs/cgroup");
  }

  TEST_CASE("a mount of part of the hierarchy (a container's) is followed from its root") {
    const char* mounts = "50 40 0:30 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
    CHECK(base::parse_cgroup_parent("0::/docker/abc/worker\n", mounts).path == "/sys/fs/cgroup/worker");
    auto outside = base::parse_cgroup_parent("0::/elsewhere\n", mounts);
    CHECK(outside.path.empty());
    CHECK(outside.why_not == "cgroup v2: this process's cgroup /elsewhere is outside the mount at /sys/fs/cgroup");
  }

  TEST_CASE("v1's memory hierarchy comes first; without either, the reason") {
    // A hybrid host: v1 holds the memory controller, so v2 has none to give.
    CHECK(base::parse_cgroup_parent(kV1Self, kV1Mounts).version == 1);
    auto none = base::parse_cgroup_parent("1:cpu:/\n", "32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
    CHECK(none.path.empty());
    CHECK(none.why_not == "no memory cgroup hierarchy is mounted here");
  }
}
