// Speedups set aside: the quarantine (eval/verdict/quarantine.h) and library-only
// candidates (eval.library_only), in the verdict, the config and the report.
#include <doctest/doctest.h>

#include "agent/config.h"
#include "agent/report/report_printers.h"
#include "eval/verdict/quarantine.h"

using eval::KernelEvidence;
using eval::LibraryOnly;
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

agent::Attempt attempt(const std::string& problem, double speedup, const std::string& quarantine = "",
                       bool library_only = false) {
  agent::Attempt a;
  a.key = {"m", "s", problem, 0, 1};
  a.status = agent::AttemptStatus::correct;
  a.evaluated = true;
  a.backend = "cuda";
  a.speedup = speedup;
  a.quarantine = quarantine;
  a.library_only = library_only;
  return a;
}

KernelEvidence only_torch() {
  KernelEvidence k;
  k.watched = true;
  k.other_launches = 14;
  k.timed_other = 12;
  k.other_us = 90;
  k.top_other = "void at::native::vectorized_elementwise_kernel<4, gelu>";
  return k;
}

Outcome correct_with(const KernelEvidence& k) {
  Outcome o;
  o.status = Status::correct;
  o.message = "correct; speedup 7.900x";
  o.timing.emplace();
  o.timing->speedup = 7.9;
  o.kernels = k;
  return o;
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

TEST_SUITE("eval::KernelEvidence") {
  TEST_CASE("library only means no kernel of its own in the timed calls") {
    KernelEvidence k = only_torch();
    CHECK(k.library_only());
    CHECK(k.own_share() == 0);
    k.timed_own = 1;  // one launch of its own in the timed calls is enough
    CHECK_FALSE(k.library_only());
    KernelEvidence unwatched;
    CHECK_FALSE(unwatched.library_only());  // no evidence is no verdict
    CHECK(unwatched.own_share() == -1);
  }

  TEST_CASE("a timed graph launch counts as its own only if the traced trials ran a kernel of its own") {
    KernelEvidence k = only_torch();
    k.timed_graphs = 5;
    CHECK(k.library_only());  // a graph of LibTorch's kernels
    k.own_us = 30;
    CHECK_FALSE(k.library_only());
    CHECK(k.own_share() == doctest::Approx(0.25));
  }
}

TEST_SUITE("eval::apply_library_only") {
  TEST_CASE("correct, the default, keeps the verdict and marks it") {
    Outcome o = correct_with(only_torch());
    eval::apply_library_only(o, LibraryOnly::correct);
    CHECK(o.status == Status::correct);
    CHECK(o.library_only);
    CHECK(o.message ==
          "correct; speedup 7.900x; library only: no kernel of its own ran in the timed calls, only another's (12 "
          "launches, most of them void at::native::vectorized_elementwise_kernel<4, gelu>); its speedup is left out "
          "of fast_p for p > 0 (eval.library_only)");
  }

  TEST_CASE("reject makes it rejected, count leaves it") {
    Outcome rejected = correct_with(only_torch());
    eval::apply_library_only(rejected, LibraryOnly::reject);
    CHECK(rejected.status == Status::rejected);
    CHECK(rejected.message.rfind("library only: no kernel of its own ran in the timed calls", 0) == 0);
    CHECK(rejected.message.find("(eval.library_only: reject)") != std::string::npos);
    Outcome counted = correct_with(only_torch());
    eval::apply_library_only(counted, LibraryOnly::count);
    CHECK(counted.status == Status::correct);
    CHECK_FALSE(counted.library_only);
    CHECK(counted.message == "correct; speedup 7.900x");
  }

  TEST_CASE("a candidate with a kernel of its own, a wrong one, or no evidence is left alone") {
    KernelEvidence own = only_torch();
    own.timed_own = 3;
    Outcome mine = correct_with(own);
    eval::apply_library_only(mine, LibraryOnly::reject);
    CHECK(mine.status == Status::correct);
    Outcome wrong = correct_with(only_torch());
    wrong.status = Status::mismatch;
    eval::apply_library_only(wrong, LibraryOnly::reject);
    CHECK(wrong.status == Status::mismatch);
    Outcome cpu = correct_with(only_torch());
    cpu.kernels.reset();
    eval::apply_library_only(cpu, LibraryOnly::reject);
    CHECK(cpu.status == Status::correct);
  }

  TEST_CASE("the setting's names") {
    CHECK(eval::parse_library_only("count") == LibraryOnly::count);
    CHECK(eval::parse_library_only("correct") == LibraryOnly::correct);
    CHECK(eval::parse_library_only("reject") == LibraryOnly::reject);
    CHECK_FALSE(eval::parse_library_only("forbid").has_value());
  }
}

TEST_SUITE("agent::report quarantine") {
  TEST_CASE("a quarantined speedup is correct but counts toward fast_p only once accepted") {
    auto config = one_arm();
    const std::string why = "speedup 40.0x is above eval.quarantine_speedup (20.0x)";
    std::vector<agent::Attempt> attempts = {attempt("level1/19", 40, why), attempt("level1/20", 1.5)};
    const std::vector<std::string> problems = {"level1/19", "level1/20"};
    const auto r_report = agent::campaign_report(config, problems, attempts);
    auto r = agent::to_json(r_report);
    const auto& turn = r["arms"][0]["turns"][0];
    CHECK(turn["correct_rate"].get<double>() == 1.0);
    CHECK(turn["fast_p"]["0"].get<double>() == 1.0);
    CHECK(turn["fast_p"]["1"].get<double>() == 0.5);
    CHECK(turn["geomean_speedup"].get<double>() == doctest::Approx(1.5));
    REQUIRE(r["arms"][0]["quarantined"].size() == 1);
    CHECK(r["arms"][0]["quarantined"][0]["key"] == "m/s/level1/19/s0/t1");
    const std::string text = agent::format_report(r_report);
    CHECK(text.find("  quarantined: 1 correct attempt whose speedup waits for `refinery accept RUN KEY`") !=
          std::string::npos);
    CHECK(text.find("    m/s/level1/19/s0/t1  40.00x: " + why + "\n") != std::string::npos);

    const auto accepted_report = agent::campaign_report(config, problems, attempts, {}, {}, {"m/s/level1/19/s0/t1"});
    auto accepted = agent::to_json(accepted_report);
    CHECK(accepted["arms"][0]["turns"][0]["fast_p"]["1"].get<double>() == 1.0);
    CHECK_FALSE(accepted["arms"][0].contains("quarantined"));
    CHECK(accepted["arms"][0]["quarantine_accepted"] == 1);
    CHECK(
        agent::format_report(accepted_report).find("  quarantine: 1 speedup accepted by a person (accepted.jsonl)\n") !=
        std::string::npos);
  }

  TEST_CASE("a campaign with nothing quarantined reports as before") {
    const auto r_report = agent::campaign_report(one_arm(), {"level1/19"}, {attempt("level1/19", 2)});
    auto r = agent::to_json(r_report);
    CHECK_FALSE(r["arms"][0].contains("quarantined"));
    CHECK_FALSE(r["arms"][0].contains("quarantine_accepted"));
  }
}

TEST_SUITE("agent::report library only") {
  TEST_CASE(
      "a library-only attempt is correct but counts for nothing in fast_p for p > 0, and the report says how many") {
    auto config = one_arm();
    const std::vector<std::string> problems = {"level1/88", "level1/19"};
    const auto r_report =
        agent::campaign_report(config, problems, {attempt("level1/88", 7.9, "", true), attempt("level1/19", 1.5)});
    auto r = agent::to_json(r_report);
    const auto& turn = r["arms"][0]["turns"][0];
    CHECK(turn["correct_rate"].get<double>() == 1.0);
    CHECK(turn["fast_p"]["0"].get<double>() == 1.0);
    CHECK(turn["fast_p"]["1"].get<double>() == 0.5);
    CHECK(turn["geomean_speedup"].get<double>() == doctest::Approx(1.5));
    CHECK(r["arms"][0]["library_only"] == 1);
    CHECK(agent::format_report(r_report).find(
              "  library only: 1 correct attempt that ran no kernel of its own, left out of "
              "fast_p for p > 0 and of the geomean (eval.library_only)\n") != std::string::npos);
    const auto none_report = agent::campaign_report(config, problems, {attempt("level1/19", 1.5)});
    auto none = agent::to_json(none_report);
    CHECK_FALSE(none["arms"][0].contains("library_only"));
  }
}

TEST_SUITE("agent::config static checks and library_only") {
  const char* base =
      "problems: {ids: [level1/19]}\nmodels: [{name: m, provider: replay, replay_from: r.jsonl}]\n"
      "strategies: [{name: s, kind: single_shot}]\n";

  TEST_CASE("eval.static_checks overrides rules over the defaults, or turns them off") {
    auto c = agent::parse_config(
        std::string(base) + "eval:\n  quarantine_speedup: 50\n  static_checks: {library_ops: reject, streams: off}\n",
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

  TEST_CASE("eval.library_only is count, correct (the default) or reject") {
    auto plain = agent::parse_config(base, "c.yaml");
    REQUIRE_MESSAGE(plain.ok(), (plain.ok() ? "" : plain.error().message));
    CHECK(plain->eval.library_only == LibraryOnly::correct);
    CHECK(plain->eval.launch_watch);
    auto unwatched = agent::parse_config(std::string(base) + "eval: {launch_watch: false}\n", "c.yaml");
    REQUIRE(unwatched.ok());
    CHECK_FALSE(unwatched->eval.launch_watch);
    auto reject = agent::parse_config(std::string(base) + "eval: {library_only: reject}\n", "c.yaml");
    REQUIRE(reject.ok());
    CHECK(reject->eval.library_only == LibraryOnly::reject);
    auto bad = agent::parse_config(std::string(base) + "eval: {library_only: forbid}\n", "c.yaml");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("c.yaml:4") != std::string::npos);
  }
}

TEST_SUITE("agent::report hidden shapes") {
  TEST_CASE("a kernel correct only at the shown size: not correct unless report.require_hidden is false; the gap") {
    auto config = one_arm();
    auto shown_only = attempt("level1/20", 3.0);
    shown_only.status = agent::AttemptStatus::fails_hidden_shape;
    shown_only.hidden_shapes = 1;
    auto general = attempt("level1/19", 1.5);
    general.hidden_shapes = 3;
    const std::vector<agent::Attempt> attempts = {general, shown_only};
    const std::vector<std::string> problems = {"level1/19", "level1/20"};
    const auto strict = agent::campaign_report(config, problems, attempts);
    auto j = agent::to_json(strict);
    CHECK(j["arms"][0]["turns"][0]["correct_rate"].get<double>() == 0.5);
    CHECK(j["arms"][0]["turns"][0]["fast_p"]["1"].get<double>() == 0.5);
    CHECK(j["arms"][0]["hidden_shapes"]["checked"] == 2);
    CHECK(j["arms"][0]["hidden_shapes"]["passed"] == 1);
    CHECK(j["arms"][0]["hidden_shapes"]["gap"].get<double>() == doctest::Approx(0.5));
    CHECK(j["arms"][0]["attempts_by_status"]["fails_hidden_shape"] == 1);
    CHECK(agent::format_report(strict).find("  hidden shapes: 1 of 2 attempts correct at the shown size also correct "
                                            "at the hidden shapes (generalization gap 50.0%)") != std::string::npos);
    config.require_hidden = false;
    auto lenient = agent::to_json(agent::campaign_report(config, problems, attempts));
    CHECK(lenient["arms"][0]["turns"][0]["correct_rate"].get<double>() == 1.0);
    CHECK(lenient["arms"][0]["turns"][0]["fast_p"]["1"].get<double>() == 1.0);
    CHECK(lenient["arms"][0]["hidden_shapes"]["gap"].get<double>() == doctest::Approx(0.5));
    // Without hidden shapes checked, the report says nothing of them.
    auto plain = agent::to_json(agent::campaign_report(one_arm(), {"level1/19"}, {attempt("level1/19", 2)}));
    CHECK_FALSE(plain["arms"][0].contains("hidden_shapes"));
    CHECK_FALSE(plain["arms"][0].contains("precisions"));
  }

  TEST_CASE("an arm's attempts by the precision they ran at: the one asked, and fp32 where a spec calls it unfit") {
    auto half = attempt("level1/19", 1.5);
    half.precision = "bf16";
    auto unfit = attempt("level1/20", 1.2);
    unfit.precision = "fp32";
    const auto report = agent::campaign_report(one_arm(), {"level1/19", "level1/20"}, {half, unfit});
    auto j = agent::to_json(report);
    CHECK(j["arms"][0]["precisions"]["bf16"] == 1);
    CHECK(j["arms"][0]["precisions"]["fp32"] == 1);
    CHECK(agent::format_report(report).find("  precision: 1 attempt at bf16, 1 attempt at fp32 (problems whose spec "
                                            "calls the precision asked unfit)") != std::string::npos);
  }
}
