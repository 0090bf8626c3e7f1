#include <doctest/doctest.h>

#include <cmath>

#include "agent/report/report.h"
#include "agent/report/report_printers.h"

using agent::AttemptSummary;
using agent::compute_turns;
using nlohmann::json;

namespace {
AttemptSummary correct(const std::string& p, int sample, int turn, double speedup) {
  return {p, sample, turn, true, speedup};
}
AttemptSummary failed(const std::string& p, int sample, int turn) {
  return {p, sample, turn, false, 0};
}
}  // namespace

TEST_SUITE("agent::report") {
  TEST_CASE("fast_p counts every selected problem in the denominator") {
    // Four problems, one chain each, one turn: a 2x kernel, a 0.9x kernel, a failure, nothing.
    std::vector<AttemptSummary> attempts = {correct("a", 0, 1, 2.0), correct("b", 0, 1, 0.9), failed("c", 0, 1)};
    auto f = compute_turns(attempts, {"a", "b", "c", "d"}, 1, 1, {0, 1, 1.5, 2});
    REQUIRE(f.size() == 1);
    CHECK(f[0].fast_p == std::vector<double>{0.5, 0.25, 0.25, 0.0});  // speedup > 2 is strict
    CHECK(f[0].correct_rate == 0.5);
    CHECK(f[0].geomean_speedup.value() == doctest::Approx(std::sqrt(2.0 * 0.9)));
  }

  TEST_CASE("a chain keeps its best correct attempt from earlier turns") {
    std::vector<AttemptSummary> attempts = {
        failed("a", 0, 1),       correct("a", 0, 2, 1.2), correct("a", 0, 3, 0.8),  // regresses at turn 3
        correct("b", 0, 1, 0.5), failed("b", 0, 2),       correct("b", 0, 3, 3.0)};
    auto f = compute_turns(attempts, {"a", "b"}, 1, 3, {1.0});
    REQUIRE(f.size() == 3);
    CHECK(f[0].fast_p[0] == 0.0);
    CHECK(f[0].correct_rate == 0.5);
    CHECK(f[1].fast_p[0] == 0.5);
    CHECK(f[1].correct_rate == 1.0);
    CHECK(f[2].fast_p[0] == 1.0);
    CHECK(f[2].geomean_speedup.value() == doctest::Approx(std::sqrt(1.2 * 3.0)));
  }

  TEST_CASE("with k samples, fast_p averages over chains and fast_p@k takes the best") {
    std::vector<AttemptSummary> attempts = {correct("a", 0, 1, 1.5), correct("a", 1, 1, 0.7), correct("b", 1, 1, 1.1),
                                            failed("b", 0, 1)};
    auto f = compute_turns(attempts, {"a", "b"}, 2, 1, {1.0});
    CHECK(f[0].fast_p[0] == 0.5);       // 2 of 4 chains
    CHECK(f[0].fast_p_at_k[0] == 1.0);  // both problems, by some chain
    CHECK(f[0].correct_rate == 0.75);
  }

  TEST_CASE("attempts outside the selection or the sample range do not count") {
    std::vector<AttemptSummary> attempts = {correct("zzz", 0, 1, 9.0), correct("a", 5, 1, 9.0)};
    auto f = compute_turns(attempts, {"a"}, 1, 1, {1.0});
    CHECK(f[0].fast_p[0] == 0.0);
    CHECK(f[0].chains_with_correct == 0);
    CHECK_FALSE(f[0].geomean_speedup.has_value());  // nothing behind it: no figure, not 0
  }

  TEST_CASE("an unstable attempt is correct, but its speedup counts for nothing unless the config says so") {
    AttemptSummary noisy = correct("a", 0, 1, 6.6);
    noisy.unstable = true;
    std::vector<AttemptSummary> attempts = {noisy, correct("b", 0, 1, 2.0)};
    auto f = compute_turns(attempts, {"a", "b"}, 1, 1, {0, 1});
    CHECK(f[0].correct_rate == 1.0);
    CHECK(f[0].fast_p == std::vector<double>{1.0, 0.5});  // fast_0 is "correct"; fast_1 leaves a out
    CHECK(f[0].geomean_speedup.value() == doctest::Approx(2.0));
    auto counted = compute_turns(attempts, {"a", "b"}, 1, 1, {0, 1}, /*count_unstable=*/true);
    CHECK(counted[0].fast_p == std::vector<double>{1.0, 1.0});
    CHECK(counted[0].geomean_speedup.value() == doctest::Approx(std::sqrt(6.6 * 2.0)));
    // A stable, slower attempt of the same chain still counts.
    attempts.push_back(correct("a", 0, 2, 1.5));
    auto later = compute_turns(attempts, {"a", "b"}, 1, 2, {1});
    CHECK(later[1].fast_p[0] == 1.0);
    CHECK(later[1].geomean_speedup.value() == doctest::Approx(std::sqrt(1.5 * 2.0)));
  }

  TEST_CASE("problems left out of fast_p leave its denominator, stay in the counts, and the report says so") {
    agent::Config config;
    config.name = "c";
    config.models.resize(1);
    config.models[0].name = "m";
    config.strategies.resize(1);
    config.strategies[0].name = "s";
    config.strategies[0].samples = 1;
    config.strategies[0].turns = 1;
    config.thresholds = {1};
    auto attempt = [](const std::string& problem, const std::string& status, double speedup) {
      agent::Attempt a;
      a.key = {"m", "s", problem, 0, 1};
      a.status = *agent::parse_attempt_status(status);
      a.evaluated = true;
      a.backend = "cuda";
      if (a.correct()) a.speedup = speedup;
      a.cost_usd = 0.5;
      return a;
    };
    // The degenerate problem's "fast" kernel skips the work: 40x.
    std::vector<agent::Attempt> attempts = {attempt("level2/80", "correct", 40), attempt("level1/19", "correct", 1.5),
                                            attempt("level1/20", "mismatch", 0)};
    const std::vector<std::string> problems = {"level1/19", "level1/20", "level2/80"};
    const auto all_report = agent::campaign_report(config, problems, attempts);
    auto all = agent::to_json(all_report);
    CHECK(all["arms"][0]["turns"][0]["fast_p"]["1"].get<double>() == doctest::Approx(2.0 / 3));
    CHECK_FALSE(all.contains("left_out"));
    const auto r_report = agent::campaign_report(config, problems, attempts, {"level2/80"}, {"set:degenerate"});
    auto r = agent::to_json(r_report);
    CHECK(r["arms"][0]["turns"][0]["fast_p"]["1"].get<double>() == doctest::Approx(0.5));
    CHECK(r["arms"][0]["turns"][0]["geomean_speedup"].get<double>() == doctest::Approx(1.5));
    CHECK(r["arms"][0]["attempts"] == 3);
    CHECK(r["arms"][0]["cost_usd"].get<double>() == doctest::Approx(1.5));
    CHECK(r["problems"] == 3);
    CHECK(r["left_out"]["problems"] == std::vector<std::string>{"level2/80"});
    const std::string text = agent::format_report(r_report);
    CHECK(text.find(
              "left out of fast_p, the correct rate and the geomean (set:degenerate): 1 of 3 problems: level2/80\n") !=
          std::string::npos);
  }

  TEST_CASE("the report counts each device's verdicts and names a retired device with the attempt it followed") {
    agent::Config config;
    config.models.push_back({});
    config.models[0].name = "m";
    config.strategies.push_back({});
    config.strategies[0].name = "s";
    std::vector<agent::Attempt> attempts;
    for (int i = 0; i < 5; ++i) {
      agent::Attempt a;
      a.key = {"m", "s", "level1/" + std::to_string(i + 1), 0, 1};
      a.status = agent::AttemptStatus::correct;
      a.evaluated = true;
      a.backend = "cuda";
      a.speedup = 1.0;
      a.device = i % 2 == 0 ? 0 : 2;
      attempts.push_back(a);
    }
    attempts[3].devices_retired = {{1, "probe of device 1: the reference against itself ended timeout"}};
    const auto r_report =
        agent::campaign_report(config, {"level1/1", "level1/2", "level1/3", "level1/4", "level1/5"}, attempts);
    auto r = agent::to_json(r_report);
    CHECK(r["devices"]["attempts"] == json{{"0", 3}, {"2", 2}});
    REQUIRE(r["devices"]["retired"].size() == 1);
    CHECK(r["devices"]["retired"][0]["key"] == "m/s/level1/4/s0/t1");
    CHECK(agent::format_report(r_report).find("devices: 0 (3 attempts) 2 (2 attempts); device 1 retired after "
                                              "m/s/level1/4/s0/t1: probe of device 1") != std::string::npos);
    for (auto& a : attempts) a.device.reset(), a.devices_retired.clear();
    CHECK_FALSE(agent::to_json(agent::campaign_report(config, {"level1/1"}, attempts)).contains("devices"));
    // The record keeps both through attempts.jsonl.
    agent::Attempt a = attempts[0];
    a.device = 2;
    a.devices_retired = {{1, "gone"}};
    auto back = agent::attempt_from_json(agent::to_json(a));
    REQUIRE(back.ok());
    CHECK(back->device == 2);
    REQUIRE(back->devices_retired.size() == 1);
    CHECK(back->devices_retired[0].reason == "gone");
  }

  TEST_CASE("the report says which modes produced its attempts, and a comparison lists the verdicts that differ") {
    auto attempt = [](const std::string& problem, const std::string& status, const std::string& mode) {
      agent::Attempt a;
      a.key = {"m", "s", problem, 0, 1};
      a.status = *agent::parse_attempt_status(status);
      a.message = status + " in " + mode;
      a.evaluated = true;
      a.backend = "cuda";
      a.mode = mode;
      if (a.correct()) a.speedup = 1.2;
      return a;
    };
    std::vector<agent::Attempt> ours = {attempt("level1/19", "correct", "refinery"),
                                        attempt("level1/20", "mismatch", "refinery"),
                                        attempt("level1/21", "correct", "refinery")};
    std::vector<agent::Attempt> theirs = {attempt("level1/19", "correct", "kernelbench"),
                                          attempt("level1/20", "correct", "kernelbench")};
    agent::Config config;
    config.models.push_back({});
    config.models[0].name = "m";
    config.strategies.push_back({});
    config.strategies[0].name = "s";
    const auto r_report = agent::campaign_report(config, {"level1/19", "level1/20", "level1/21"}, ours);
    auto r = agent::to_json(r_report);
    CHECK(r["modes"] == std::vector<std::string>{"refinery"});
    CHECK(agent::format_report(r_report).find("mode: refinery\n") != std::string::npos);
    const auto kb_report = agent::campaign_report(config, {"level1/19", "level1/20"}, theirs);
    CHECK(agent::format_report(kb_report).find("mode: kernelbench (KernelBench v0.1") != std::string::npos);

    auto compared = r_report;
    compared.compare = agent::compare_verdicts(ours, theirs, "runs/kb");
    const auto c = agent::to_json(compared)["compare"];
    CHECK(c["run"] == "runs/kb");
    CHECK(c["compared"] == 2);  // level1/21 was evaluated in one campaign only
    REQUIRE(c["differ"].size() == 1);
    CHECK(c["differ"][0]["key"] == "m/s/level1/20/s0/t1");
    CHECK(c["differ"][0]["this"]["status"] == "mismatch");
    CHECK(c["differ"][0]["other"]["mode"] == "kernelbench");
    const std::string text = agent::format_report(compared);
    CHECK(text.substr(text.find("verdicts against")) ==
          "verdicts against runs/kb: 1 of 2 attempts evaluated in both differ\n"
          "  m/s/level1/20/s0/t1\n    refinery: mismatch (mismatch in refinery)\n"
          "    kernelbench: correct (correct in kernelbench)\n");
  }

  TEST_CASE("a geomean with nothing behind it is no figure: null in JSON, '-' in the text, and the text says why") {
    agent::Config config;
    config.models.push_back({});
    config.models[0].name = "m";
    config.strategies.push_back({});
    config.strategies[0].name = "s";
    config.strategies[0].turns = 3;
    config.thresholds = {0, 1};
    auto attempt = [](int turn, agent::AttemptStatus status, bool unstable) {
      agent::Attempt a;
      a.key = {"m", "s", "level1/19", 0, turn};
      a.status = status;
      a.evaluated = true;
      a.backend = "cuda";
      if (a.correct()) a.speedup = 2.0;
      a.unstable = unstable;
      return a;
    };
    // Turn 1 fails, turn 2 is correct but unstable, turn 3 is correct and stable.
    const std::vector<agent::Attempt> attempts = {attempt(1, agent::AttemptStatus::mismatch, false),
                                                  attempt(2, agent::AttemptStatus::correct, true),
                                                  attempt(3, agent::AttemptStatus::correct, false)};
    const auto report = agent::campaign_report(config, {"level1/19"}, attempts);
    const json j = agent::to_json(report);
    CHECK(j["arms"][0]["turns"][0]["geomean_speedup"].is_null());
    CHECK(j["arms"][0]["turns"][1]["geomean_speedup"].is_null());
    CHECK(j["arms"][0]["turns"][2]["geomean_speedup"] == 2.0);
    CHECK(agent::format_report(report) ==
          "m x s: 1 problems x 1 samples, 3 attempts, 0 tokens, $0.0000\n"
          "  turn  correct  geomean  fast_0     fast_1   \n"
          "     1     0.0%        -       0.0%       0.0%\n"
          "     2   100.0%        -     100.0%       0.0%\n"
          "     3   100.0%   2.000x     100.0%     100.0%\n"
          "  geomean - at turn 1: no correct attempt\n"
          "  geomean - at turn 2: no correct attempt whose speedup counts (see below)\n"
          "  attempts: correct 2, mismatch 1\n"
          "  unstable timings: 1 correct attempt left out of fast_p for p > 0 and of the geomean\n");
  }
}
