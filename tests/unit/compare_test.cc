#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "agent/report/compare.h"

using agent::AttemptRow;
using agent::bootstrap_mean_difference;
using agent::compare_arms;
using agent::CompareSide;

namespace {

// Problem difficulties shared by both sides, spread widely, with a fixed seed.
std::vector<double> difficulties(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> d(0.0, 1.0);
  std::vector<double> out;
  for (size_t i = 0; i < n; ++i) out.push_back(d(rng));
  return out;
}

AttemptRow row(const std::string& problem, int turn, const std::string& status, std::optional<double> speedup,
               double cost = 0) {
  AttemptRow r;
  r.problem = problem;
  r.turn = turn;
  r.status = status;
  r.speedup = speedup;
  r.counts = status == "correct" && speedup.has_value();
  r.cost_usd = cost;
  return r;
}

}  // namespace

TEST_SUITE("agent::compare") {
  TEST_CASE("the bootstrap finds a known difference and a null one straddles 0") {
    const auto base = difficulties(200, 7);
    std::mt19937_64 rng(11);
    std::normal_distribution<double> noise(0.0, 0.1);
    std::vector<double> a, b, same;
    for (double x : base) {
      a.push_back(x + 0.3 + noise(rng));
      b.push_back(x);
      same.push_back(x + noise(rng));
    }
    const auto known = bootstrap_mean_difference(a, b, true, 2000, 1);
    CHECK(known.value == doctest::Approx(0.3).epsilon(0.05));
    CHECK(known.low > 0.25);
    CHECK(known.high < 0.35);
    CHECK(known.low < known.value);
    CHECK(known.value < known.high);
    const auto null = bootstrap_mean_difference(same, b, true, 2000, 1);
    CHECK(null.low < 0);
    CHECK(null.high > 0);
    CHECK(std::abs(null.value) < 0.03);
  }

  TEST_CASE("pairing narrows the interval when problems share their difficulty, as it should") {
    const auto base = difficulties(100, 3);
    std::vector<double> a, b;
    for (double x : base) a.push_back(x + 0.1), b.push_back(x);
    const auto paired = bootstrap_mean_difference(a, b, true, 2000, 5);
    const auto unpaired = bootstrap_mean_difference(a, b, false, 2000, 5);
    // Paired: every problem differs by exactly 0.1, so every resample does.
    CHECK(paired.high - paired.low < 1e-9);
    CHECK(paired.value == doctest::Approx(0.1));
    // Unpaired: the spread of the difficulties (sd 1 over 100 problems, twice) shows.
    CHECK(unpaired.high - unpaired.low > 0.3);
    CHECK(unpaired.low < 0.1);
    CHECK(unpaired.high > 0.1);
  }

  TEST_CASE("the same seed gives the same interval, another seed another") {
    const auto base = difficulties(50, 9);
    std::vector<double> a(base.begin(), base.end()), b(50, 0.0);
    const auto one = bootstrap_mean_difference(a, b, true, 500, 42);
    const auto again = bootstrap_mean_difference(a, b, true, 500, 42);
    const auto other = bootstrap_mean_difference(a, b, true, 500, 43);
    CHECK(one.low == again.low);
    CHECK(one.high == again.high);
    CHECK(one.low != other.low);
  }

  TEST_CASE("compare_arms pairs by problem: differences, the geomean ratio, wins and cost per solved") {
    CompareSide a{"A", {"p1", "p2", "p3", "p4"}, 1, 2, {}};
    CompareSide b{"B", {"p1", "p2", "p3", "p5"}, 1, 1, {}};  // p4 and p5 are asked of one side only
    a.rows = {row("p1", 1, "correct", 2.0, 1.0), row("p2", 1, "mismatch", std::nullopt, 1.0),
              row("p2", 2, "correct", 1.0, 1.0), row("p3", 1, "correct", 4.0, 1.0), row("p4", 1, "correct", 9.0, 5.0)};
    b.rows = {row("p1", 1, "correct", 1.0, 2.0), row("p2", 1, "correct", 0.5, 2.0), row("p3", 1, "correct", 4.04, 2.0),
              row("p5", 1, "correct", 9.0, 2.0)};
    const auto c = compare_arms(a, b, {0, 1}, 1000, 1);
    CHECK(c.paired == 3);
    CHECK(c.only_a == std::vector<std::string>{"p4"});
    CHECK(c.only_b == std::vector<std::string>{"p5"});
    REQUIRE(c.turns.size() == 2);  // the longer side's turns; B's one turn stands for its second
    const auto& t1 = c.turns[0];
    CHECK(t1.fast_a[0] == doctest::Approx(2.0 / 3));  // fast_0: p1 and p3
    CHECK(t1.fast_b[0] == doctest::Approx(1.0));
    CHECK(t1.fast_p_diff[0].value == doctest::Approx(-1.0 / 3));
    CHECK(t1.fast_a[1] == doctest::Approx(2.0 / 3));  // fast_1: 2x and 4x; B's 1.0 is not > 1
    CHECK(t1.fast_b[1] == doctest::Approx(1.0 / 3));
    // A: p1 2x > 1x, p3 4x against 4.04x is a tie (within 2%), p2 none against correct: lost.
    CHECK(t1.won == 1);
    CHECK(t1.tied == 1);
    CHECK(t1.lost == 1);
    REQUIRE(t1.geomean_ratio);
    CHECK(t1.geomean_ratio->value == doctest::Approx(std::sqrt(2.0 * 4.0) / std::cbrt(1.0 * 0.5 * 4.04)));
    CHECK(t1.geomean_ratio->low <= t1.geomean_ratio->value);
    CHECK(t1.geomean_ratio->high >= t1.geomean_ratio->value);
    // Cost per solved problem over the paired problems: A spent 3 on p1..p3 at turn 1 and solved 2.
    CHECK(*t1.cost_per_solved_a == doctest::Approx(3.0 / 2));
    CHECK(*t1.cost_per_solved_b == doctest::Approx(6.0 / 3));
    const auto& t2 = c.turns[1];
    CHECK(t2.fast_a[0] == doctest::Approx(1.0));
    CHECK(t2.won == 2);  // p2 now correct at 1x against 0.5x
    CHECK(*t2.cost_per_solved_a == doctest::Approx(4.0 / 3));
  }

  TEST_CASE("a side without a counted speedup has no geomean ratio") {
    CompareSide a{"A", {"p1"}, 1, 1, {row("p1", 1, "mismatch", std::nullopt)}};
    CompareSide b{"B", {"p1"}, 1, 1, {row("p1", 1, "correct", 1.5)}};
    const auto c = compare_arms(a, b, {1}, 200, 1);
    CHECK_FALSE(c.turns[0].geomean_ratio);
    CHECK(c.turns[0].lost == 1);
    CHECK_FALSE(c.turns[0].cost_per_solved_a);
  }
}
