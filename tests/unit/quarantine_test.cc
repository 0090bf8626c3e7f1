#include <doctest/doctest.h>

#include "agent/config.h"
#include "agent/report/run_report.h"
#include "eval/quarantine.h"

using eval::Outcome;
using eval::quarantine_reason;
using eval::ResolvedInput;
using eval::Status;

namespace {

// A correct cuda outcome of a 2^20-element fp32 ReLU timed at `candidate_ms`.
Outcome relu_outcome(double candidate_ms, double speedup) {
  Outcome o;
  o.status = Status::correct;
  o.timing.emplace();
  o.timing->speedup = speedup;
  o.timing->candidate.median_ms = candidate_ms;
  o.timing->l2_flushed = true;
  o.output_shapes = {"[1024, 1024] float32"};
  o.versions["peak_bandwidth_gbs"] = 4000.0;
  return o;
}

std::vector<ResolvedInput> relu_inputs() {
  ResolvedInput x;
  x.name = "x";
  x.shape = {1024, 1024};
  return {x};
}

agent::Config one_arm() {
  agent::Config config;
  config.name = "c";
  config.models.resize(1);
  config.models[0].name = "m";
  config.strategies.resize(1);
  config.strategies[0].name = "s";
  config.thresholds = {0, 1};
  return config;
}

agent::Attempt attempt(const std::string& problem, double speedup, const std::string& quarantine = "") {
  agent::Attempt a;
  a.key = {"m", "s", problem, 0, 1};
  a.status = "correct";
  a.evaluated = true;
  a.backend = "cuda";
  a.speedup = speedup;
  a.quarantine = quarantine;
  return a;
}

}  // namespace

TEST_SUITE("eval::quarantine_reason") {
  TEST_CASE("a speedup above the factor waits for a person") {
    CHECK(quarantine_reason(relu_inputs(), relu_outcome(1.0, 19.9), 20) == "");
    CHECK(quarantine_reason(relu_inputs(), relu_outcome(1.0, 25), 20) ==
          "speedup 25.0x is above eval.quarantine_speedup (20.0x); a person accepts it (refinery accept) before it "
          "counts toward fast_p");
    CHECK(quarantine_reason(relu_inputs(), relu_outcome(1.0, 1000), 0) == "");  // 0: no factor
  }

  TEST_CASE("faster than the device can move the bytes is a physics floor") {
    // 8 MiB in and out at 4000 GB/s: 2.097 us.
    CHECK(quarantine_reason(relu_inputs(), relu_outcome(0.0021, 2), 0) == "");
    std::string why = quarantine_reason(relu_inputs(), relu_outcome(0.0010, 2), 0);
    CHECK(why.find("candidate median 0.0010 ms is below 0.0021 ms") == 0);
    CHECK(why.find("(8.4 MB) at its peak DRAM bandwidth (4000 GB/s)") != std::string::npos);
    // No floor where the cache was not flushed (KernelBench's mode), the device is unknown, or not correct.
    Outcome warm = relu_outcome(0.0010, 2);
    warm.timing->l2_flushed = false;
    CHECK(quarantine_reason(relu_inputs(), warm, 0) == "");
    Outcome cpu = relu_outcome(0.0010, 2);
    cpu.versions = nlohmann::json::object();
    CHECK(quarantine_reason(relu_inputs(), cpu, 0) == "");
    Outcome wrong = relu_outcome(0.0010, 2);
    wrong.status = Status::mismatch;
    CHECK(quarantine_reason(relu_inputs(), wrong, 0) == "");
  }

  TEST_CASE("output shapes count their bytes; what does not parse counts nothing") {
    CHECK(eval::shape_bytes("[4, 8] float32") == 128);
    CHECK(eval::shape_bytes("[2, 3] float16") == 12);
    CHECK(eval::shape_bytes("[] float32") == 4);  // a 0-dim scalar: one element
    CHECK(eval::shape_bytes("[4, x] float32") == 0);
    CHECK(eval::shape_bytes("[4] complex64") == 0);
  }
}

TEST_SUITE("agent::report quarantine") {
  TEST_CASE("a quarantined speedup is correct but counts toward fast_p only once accepted") {
    auto config = one_arm();
    const std::string why = "speedup 40.0x is above eval.quarantine_speedup (20.0x)";
    std::vector<agent::Attempt> attempts = {attempt("level1/19", 40, why), attempt("level1/20", 1.5)};
    const std::vector<std::string> problems = {"level1/19", "level1/20"};
    auto r = agent::campaign_report(config, problems, attempts);
    const auto& turn = r["arms"][0]["turns"][0];
    CHECK(turn["correct_rate"].get<double>() == 1.0);
    CHECK(turn["fast_p"]["0"].get<double>() == 1.0);
    CHECK(turn["fast_p"]["1"].get<double>() == 0.5);
    CHECK(turn["geomean_speedup"].get<double>() == doctest::Approx(1.5));
    REQUIRE(r["arms"][0]["quarantined"].size() == 1);
    CHECK(r["arms"][0]["quarantined"][0]["key"] == "m/s/level1/19/s0/t1");
    const std::string text = agent::format_report(r);
    CHECK(text.find("  quarantined: 1 correct attempt whose speedup waits for `refinery accept RUN KEY`") !=
          std::string::npos);
    CHECK(text.find("    m/s/level1/19/s0/t1  40.00x: " + why + "\n") != std::string::npos);

    auto accepted = agent::campaign_report(config, problems, attempts, {}, {}, {"m/s/level1/19/s0/t1"});
    CHECK(accepted["arms"][0]["turns"][0]["fast_p"]["1"].get<double>() == 1.0);
    CHECK_FALSE(accepted["arms"][0].contains("quarantined"));
    CHECK(accepted["arms"][0]["quarantine_accepted"] == 1);
    CHECK(agent::format_report(accepted).find("  quarantine: 1 speedup accepted by a person (accepted.jsonl)\n") !=
          std::string::npos);
  }

  TEST_CASE("a campaign with nothing quarantined reports as before") {
    auto r = agent::campaign_report(one_arm(), {"level1/19"}, {attempt("level1/19", 2)});
    CHECK_FALSE(r["arms"][0].contains("quarantined"));
    CHECK_FALSE(r["arms"][0].contains("quarantine_accepted"));
  }
}

TEST_SUITE("agent::config static checks") {
  const char* base =
      "problems: {ids: [level1/19]}\nmodels: [{name: m, provider: replay, replay_from: r.jsonl}]\n"
      "strategies: [{name: s, kind: single_shot}]\n";

  TEST_CASE("eval.static_checks overrides rules over the defaults, or turns them off") {
    auto c = agent::parse_config(std::string(base) +
                                     "eval:\n  quarantine_speedup: 50\n  static_checks: {library_ops: reject, streams: off}\n",
                                 "c.yaml");
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    CHECK(c->eval.quarantine_speedup == 50);
    CHECK(c->eval.static_checks.action(eval::Rule::library_ops) == eval::RuleAction::reject);
    CHECK(c->eval.static_checks.action(eval::Rule::streams) == eval::RuleAction::off);
    CHECK(c->eval.static_checks.action(eval::Rule::environment) == eval::RuleAction::reject);  // a default kept
    auto off = agent::parse_config(std::string(base) + "eval: {static_checks: off}\n", "c.yaml");
    REQUIRE(off.ok());
    for (int i = 0; i < eval::kRuleCount; ++i)
      CHECK(off->eval.static_checks.action(static_cast<eval::Rule>(i)) == eval::RuleAction::off);
  }

  TEST_CASE("an unknown rule or action is an error at its place") {
    auto bad = agent::parse_config(std::string(base) + "eval:\n  static_checks: {stream: reject}\n", "c.yaml");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("c.yaml:5") != std::string::npos);
    CHECK(bad.error().message.find("unknown static check 'stream'") != std::string::npos);
    auto action = agent::parse_config(std::string(base) + "eval:\n  static_checks: {streams: deny}\n", "c.yaml");
    REQUIRE_FALSE(action.ok());
    CHECK(action.error().message.find("unknown action 'deny' (off, warn or reject)") != std::string::npos);
    auto word = agent::parse_config(std::string(base) + "eval:\n  static_checks: strict\n", "c.yaml");
    REQUIRE_FALSE(word.ok());
    CHECK(word.error().message.find("'static_checks' is 'off' or a map") != std::string::npos);
  }

  TEST_CASE("--static-checks takes RULE=ACTION pairs, all=ACTION and off") {
    eval::StaticPolicy p;
    REQUIRE(eval::apply_policy(p, "all=warn, library_ops=reject").ok());
    CHECK(p.action(eval::Rule::environment) == eval::RuleAction::warn);
    CHECK(p.action(eval::Rule::library_ops) == eval::RuleAction::reject);
    CHECK_FALSE(eval::apply_policy(p, "library_ops").ok());
    CHECK_FALSE(eval::apply_policy(p, "nope=warn").ok());
  }
}
