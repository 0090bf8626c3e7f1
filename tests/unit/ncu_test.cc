// The ncu adapter's parser, on a CSV log from a real `ncu` run on an H200
// (the relu copy kernel of tests/gpu/profile_test.cc) and on broken logs.
#include <doctest/doctest.h>

#include "base/fs.h"
#include "base/text.h"
#include "profiler/ncu.h"
#include "profiler/profile.h"

namespace {

std::string relu_log() {
  auto text = base::read_file(std::string(REFINERY_TEST_FIXTURES) + "/ncu/relu_raw.csv");
  REQUIRE(text.ok());
  return *text;
}

}  // namespace

TEST_SUITE("ncu") {
  TEST_CASE("the marker kernel splits the candidate's launches from the reference's") {
    auto p = profiler::parse_ncu_csv(relu_log(), profiler::default_metrics());
    REQUIRE_MESSAGE(p.ok(), p.error().message);
    CHECK(p->tool == "ncu");
    CHECK(p->counters);
    REQUIRE(p->candidate.kernels.size() == 1);
    REQUIRE(p->reference.kernels.size() == 4);

    const auto& k = p->candidate.kernels[0];
    CHECK(k.name.find("relu_vec4") != std::string::npos);
    CHECK(k.registers == 32);
    CHECK(k.block[0] == 256);
    CHECK(k.grid[0] == 1056);
    CHECK(k.grid[1] == 1);
    CHECK(k.duration_us == doctest::Approx(3275.552));
    // Thousands separators and base units: bytes per second, not "TB/s".
    CHECK(k.metrics.at(profiler::metric::dram_bytes_per_second) == doctest::Approx(3927816258145.19));
    CHECK(p->candidate.wall_us == doctest::Approx(3275.552));

    for (const auto& r : p->reference.kernels) {
      CHECK(r.name.find("vectorized_elementwise_kernel") != std::string::npos);
      CHECK(r.block[0] == 128);
      CHECK(r.grid[0] == 393216);
      CHECK(r.registers == 28);
    }
    CHECK(p->reference.wall_us == doctest::Approx(759.072 + 757.568 + 758.848 + 759.744));
  }

  TEST_CASE("metrics ncu did not report are named in the note") {
    auto metrics = profiler::default_metrics();
    metrics.push_back("sm__no_such_counter.sum");
    auto p = profiler::parse_ncu_csv(relu_log(), metrics);
    REQUIRE(p.ok());
    CHECK(p->counters_note == "ncu did not report: sm__no_such_counter.sum");
  }

  TEST_CASE("a log without the marker row is refused") {
    std::string log = relu_log();
    auto at = log.find("refinery_profile_marker");
    REQUIRE(at != std::string::npos);
    log.replace(at, 23, "some_other_kernel_name_");
    auto p = profiler::parse_ncu_csv(log, profiler::default_metrics());
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().message ==
          "ncu's table has no marker kernel row: cannot tell the candidate's kernels from the reference's");
  }

  TEST_CASE("a log without a table says what ncu printed last") {
    auto p = profiler::parse_ncu_csv("==PROF== Connected to process 7\n==ERROR== ERR_NVGPUCTRPERM\n", {});
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().message ==
          "ncu wrote no kernel table:\n==PROF== Connected to process 7\n==ERROR== ERR_NVGPUCTRPERM");
  }
}
