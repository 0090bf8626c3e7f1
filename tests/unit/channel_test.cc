// The control block's layout as attack 7's candidate
// (tests/fixtures/candidates/attack_forge_timing.cpp) has it: if the block
// changes and the fixture does not, the attack would miss the claims and the
// test of the judge's bound would pass without testing anything.
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
}

}  // namespace
