// The second round of attacks on the verdict (issue 31), on the cpu backend:
// what the judge randomises is secret whatever the config's seed, and what
// it decides (the batch) follows from nothing the runner says. The other
// attacks of the round are entries of the exploit catalogue
// (tests/integrity/catalogue.tsv): inputs that are moved copies of one draw,
// and a seed replayed from the config.
#include <doctest/doctest.h>

#include "test_support.h"

using eval::Status;

namespace {

test_support::RealEvaluator& evaluator() {
  static test_support::RealEvaluator e(eval::Backend::cpu, 120);
  return e;
}

std::string exploit(const std::string& name) {
  auto text = base::read_file(std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/tests/integrity/exploits/" + name);
  REQUIRE_MESSAGE(text.ok(), name);
  return *text;
}

// Where a wrong candidate's first mismatches lie and what it wrote there:
// a function of the inputs it was given.
std::string first_mismatches(const eval::Outcome& o) {
  std::string out;
  for (const auto& t : o.trials)
    for (const auto& m : t.first) out += std::to_string(m.index.back()) + "=" + std::to_string(m.actual) + " ";
  return out;
}

}  // namespace

TEST_SUITE("attacks on the verdict: secrets and batches - cpu backend") {
  TEST_CASE("a seed fixed by the config predicts no input: every evaluation has a secret of its own") {
    auto& e = evaluator();
    e.settings.seed = 1234;
    auto a = e.run("level1/19", test_support::fixture("relu_correct.cpp"));
    auto b = e.run("level1/19", test_support::fixture("relu_correct.cpp"));
    CHECK_MESSAGE(a.status == Status::correct, a.message);
    CHECK(a.entropy.size() == 32);
    CHECK(a.entropy != b.entropy);
    // The candidate that replays refinery's seed derivation and LibTorch's
    // generator from seeds 0-4999 (1234 among them) finds nothing, and is
    // then honest.
    auto replay = e.run("level1/19", exploit("seed_replay.cpp"));
    CHECK_MESSAGE(replay.status == Status::correct, replay.message);
  }

  TEST_CASE("the same seed and a recorded entropy draw the same inputs again, and only then") {
    auto& e = evaluator();
    e.settings.seed = 77;
    auto first = e.run("level1/19", test_support::fixture("relu_wrong.cpp"));
    REQUIRE_MESSAGE(first.status == Status::mismatch, first.message);
    const std::string seen = first_mismatches(first);
    REQUIRE(!seen.empty());
    e.settings.entropy = first.entropy;
    auto again = e.run("level1/19", test_support::fixture("relu_wrong.cpp"));
    CHECK(again.entropy == first.entropy);
    CHECK(first_mismatches(again) == seen);
    e.settings.entropy.clear();
    auto fresh = e.run("level1/19", test_support::fixture("relu_wrong.cpp"));
    CHECK(fresh.entropy != first.entropy);
    CHECK(first_mismatches(fresh) != seen);
  }

  TEST_CASE("the batch is the reference's: a runner that answers its warm-up at once moves nothing") {
    auto& e = evaluator();
    e.settings.seed.reset();
    e.settings.timing.warmup = 1;  // warmup_idle.cpp idles on call 3: after the 3 trials
    REQUIRE(e.settings.trials == 3);
    // A window of 0.5 ms: one call of the reference (about 3 ms here) fills
    // it; one of a runner answering at once (about 0.01 ms) would not.
    const double saved = e.settings.timing.batch_ms;
    e.settings.timing.batch_ms = 0.5;
    auto honest = e.run("level1/19", test_support::fixture("relu_correct.cpp"));
    auto idle = e.run("level1/19", exploit("warmup_idle.cpp"));
    e.settings.timing.batch_ms = saved;
    REQUIRE_MESSAGE(honest.status == Status::correct, honest.message);
    REQUIRE_MESSAGE(idle.status == Status::correct, idle.message);
    CHECK(honest.timing->batch_calls == 1);
    CHECK(idle.timing->batch_calls == 1);
  }
}
