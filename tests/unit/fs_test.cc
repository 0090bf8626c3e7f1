#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "base/fs.h"

TEST_SUITE("base::parse_mountinfo") {
  TEST_CASE("reads root, mount point, type and super options, unescaping paths") {
    auto m = base::parse_mountinfo(
        "36 35 98:0 /mnt1 /mnt\\040two rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n"
        "garbage line\n"
        "37 35 0:5 / /sys rw - sysfs sysfs rw\n");
    REQUIRE(m.size() == 2);
    CHECK(m[0].root == "/mnt1");
    CHECK(m[0].point == "/mnt two");
    CHECK(m[0].fstype == "ext3");
    CHECK(m[0].super_options == std::vector<std::string>{"rw", "errors=continue"});
    CHECK(m[1].point == "/sys");
  }
}
