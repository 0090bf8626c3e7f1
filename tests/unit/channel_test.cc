// The control block's layout as attack 7's candidate
// (tests/fixtures/candidates/attack_forge_timing.cpp) has it: if the block
// changes and the fixture does not, the attack would miss the claims and the
// test of the judge's bound would pass without testing anything.
#include <cmath>
#include <cstddef>
#include <regex>
#include <string>

#include "eval/worker/channel.h"
#include "test_support.h"

#include <doctest/doctest.h>

namespace {

using eval::worker::ControlBlock;

size_t constant(const std::string& text, const std::string& name) {
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_search(text, m, std::regex(name + " = ([0-9]+)")), name);
  return std::stoull(m[1].str());
}

TEST_SUITE("worker channel") {
  TEST_CASE("attack 7's offsets are the control block's") {
    const std::string text = test_support::fixture("attack_forge_timing.cpp");
    CHECK(constant(text, "kStreamMs") == offsetof(ControlBlock, stream_ms));
    CHECK(constant(text, "kDeviceWideMs") == offsetof(ControlBlock, device_wide_ms));
    CHECK(constant(text, "kHostMs") == offsetof(ControlBlock, host_ms));
    CHECK(constant(text, "kTextBytes") == offsetof(ControlBlock, text_bytes));
    CHECK(constant(text, "kBlockBytes") == sizeof(ControlBlock));
    CHECK(constant(text, "kMaxCalls") == static_cast<size_t>(eval::worker::kMaxCalls));
  }

  TEST_CASE("the launch watch's claims are made safe to sum before the judge adds them up") {
    using eval::worker::claimed_count;
    using eval::worker::claimed_us;
    CHECK(claimed_count(12) == 12);
    CHECK(claimed_count(-5) == 0);
    CHECK(claimed_count(INT64_MAX) == int64_t{1} << 32);
    CHECK(claimed_us(250.5) == 250.5);
    CHECK(claimed_us(-1) == 0);
    CHECK(claimed_us(std::nan("")) == 0);
    CHECK(claimed_us(INFINITY) == 0);
    CHECK(claimed_us(1e300) == 1e8);
  }
}

}  // namespace
