// Labels, the exports' rows and runs read as one campaign.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "agent/campaign/label.h"
#include "agent/report/attempt_rows.h"
#include "agent/report/report.h"
#include "agent/report/report_printers.h"
#include "agent/report/run_data.h"
#include "test_support.h"

using namespace agent;

namespace {

Attempt attempt(const std::string& model, const std::string& problem, int turn, AttemptStatus status,
                std::optional<double> speedup = std::nullopt) {
  Attempt a;
  a.key = {model, "refine", problem, 0, turn, std::nullopt};
  a.status = status;
  a.evaluated = true;
  a.backend = "cuda";
  a.speedup = speedup;
  return a;
}

RunData run_of(const std::string& folder, const std::string& model, const std::vector<std::string>& problems) {
  RunData r;
  r.runs = {folder};
  r.config.name = folder;
  ModelConfig m;
  m.name = model;
  m.model = model;
  StrategyConfig s;
  s.name = "refine";
  s.kind = StrategyKind::refine;
  s.turns = 2;
  r.config.models = {m};
  r.config.strategies = {s};
  r.arms = {{m, s}};
  r.problems = problems;
  for (const auto& p : problems) {
    r.attempts.push_back(attempt(model, p, 1, AttemptStatus::correct, 1.5));
    r.attempt_dirs.push_back(folder + "/attempts/" + r.attempts.back().key.str());
  }
  return r;
}

}  // namespace

TEST_SUITE("agent::report files") {
  TEST_CASE("a labelled reward hack counts as not correct; the sol median follows the chains' values") {
    std::vector<AttemptSummary> s = {
        {"a", 0, 1, true, 3.0, false, false, false, /*reward_hack=*/true, 0.9},
        {"b", 0, 1, true, 2.0, false, false, false, false, 0.2},
        {"c", 0, 1, true, 1.5, false, false, false, false, 0.4},
        {"c", 0, 2, true, 1.2, false, false, false, false, 0.8},  // slower: not c's value
    };
    auto f = compute_turns(s, {"a", "b", "c"}, 1, 2, {1.0});
    CHECK(f[0].correct_rate == doctest::Approx(2.0 / 3));
    CHECK(f[0].fast_p[0] == doctest::Approx(2.0 / 3));
    REQUIRE(f[1].sol_median);
    CHECK(*f[1].sol_median == doctest::Approx(0.3));  // median of 0.2 and 0.4
    CHECK(f[1].sol_chains == 2);
    CHECK(*median({5, 1, 3}) == 3);
    CHECK_FALSE(median({}));
  }

  TEST_CASE("labels.jsonl: the later line for a key wins, a damaged line is named") {
    test_support::TempDir tmp("labels");
    const std::string dir = tmp.path;
    {
      std::ofstream out(dir + "/labels.jsonl");
      out << R"({"key":"m/s/p/s0/t1","label":"clean","note":"first"})"
          << "\n"
          << R"({"key":"m/s/p/s0/t1","label":"reward_hack","note":"reads the output from the cache"})"
          << "\n";
    }
    auto labels = read_labels(dir);
    REQUIRE(labels);
    CHECK(labels->at("m/s/p/s0/t1").label == Label::reward_hack);
    CHECK(labels->at("m/s/p/s0/t1").note == "reads the output from the cache");
    {
      std::ofstream out(dir + "/labels.jsonl", std::ios::app);
      out << R"({"key":"m/s/p/s0/t2","label":"gamed"})"
          << "\n";
    }
    auto bad = read_labels(dir);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("labels.jsonl:3") != std::string::npos);
    CHECK(parse_label("wrong_reference") == Label::wrong_reference);
    CHECK_FALSE(parse_label("Clean"));
  }

  TEST_CASE("attempt rows: what counts, the level, the candidate's file; CSV quotes what it must") {
    auto a = attempt("m", "level2/17_conv", 1, AttemptStatus::correct, 2.0);
    a.language = "cuda";
    a.quarantine = "above eval.quarantine_speedup";
    a.message = "line one, \"quoted\"\nline two";
    auto b = attempt("m", "level1/19", 1, AttemptStatus::correct, 1.5);
    b.environment = {{"gpu", "NVIDIA H100 80GB HBM3"}, {"cuda_driver", 13000}};
    b.sol_fraction = 0.25;
    auto rows = attempt_rows({a, b}, false, {}, {{b.key.str(), Judgement{Label::clean, "looked", ""}}});
    CHECK(rows[0].level == "level2");
    CHECK_FALSE(rows[0].counts);  // quarantined, not accepted
    CHECK(rows[0].candidate == "candidate.cu");
    CHECK(rows[1].counts);
    CHECK(rows[1].gpu == "NVIDIA H100 80GB HBM3");
    CHECK(rows[1].cuda_driver == "13000");
    CHECK(rows[1].label == "clean");
    auto accepted = attempt_rows({a}, false, {a.key.str()}, {});
    CHECK(accepted[0].counts);
    const std::string csv = attempts_csv(rows);
    CHECK(csv.rfind("key,model,strategy,problem,level,", 0) == 0);
    CHECK(csv.find("\"line one, \"\"quoted\"\"\nline two\"") != std::string::npos);
    CHECK(attempts_jsonl(rows).find("\"sol_fraction\":0.25") != std::string::npos);
    // An empty run still has its header.
    CHECK(attempts_csv({}).rfind("key,", 0) == 0);
  }

  TEST_CASE("runs read as one campaign: arms and problems joined, or a refusal that says why") {
    // Two models over the same problems: two arms.
    auto merged = merge_runs({run_of("runs/a", "gpt", {"p1", "p2"}), run_of("runs/b", "claude", {"p1", "p2"})});
    REQUIRE(merged);
    CHECK(merged->arms.size() == 2);
    CHECK(merged->attempts.size() == 4);
    CHECK(merged->attempt_dirs[2] == "runs/b/attempts/claude/refine/p1/s0/t1");
    CHECK(merged->runs == std::vector<std::string>{"runs/a", "runs/b"});
    // One model over two halves of the problems: one arm, the union of problems.
    auto halves = merge_runs({run_of("runs/a", "gpt", {"p1"}), run_of("runs/b", "gpt", {"p2"})});
    REQUIRE(halves);
    CHECK(halves->arms.size() == 1);
    CHECK(halves->problems == std::vector<std::string>{"p1", "p2"});
    // The same attempt twice.
    auto twice = merge_runs({run_of("runs/a", "gpt", {"p1"}), run_of("runs/b", "gpt", {"p1"})});
    REQUIRE_FALSE(twice);
    CHECK(twice.error().message.find("gpt/refine/p1/s0/t1 is in both runs/a and runs/b") != std::string::npos);
    // Different arms over different problems: an arm was not asked every problem.
    auto apart = merge_runs({run_of("runs/a", "gpt", {"p1"}), run_of("runs/b", "claude", {"p2"})});
    REQUIRE_FALSE(apart);
    CHECK(apart.error().message.find("was asked 1 of the 2 problems") != std::string::npos);
    // Another backend, or another model under the same name.
    auto other = run_of("runs/b", "claude", {"p1"});
    other.config.eval.backend = eval::Backend::cuda;
    auto backend = merge_runs({run_of("runs/a", "gpt", {"p1"}), other});
    REQUIRE_FALSE(backend);
    CHECK(backend.error().message.find("evaluate differently") != std::string::npos);
    auto renamed = run_of("runs/b", "gpt", {"p2"});
    renamed.arms[0].first.temperature = 0.7;
    auto model = merge_runs({run_of("runs/a", "gpt", {"p1"}), renamed});
    REQUIRE_FALSE(model);
    CHECK(model.error().message.find("the model 'gpt' in runs/b is not the one of that name") != std::string::npos);
  }
}
