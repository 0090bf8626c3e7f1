// refinery run and refinery report as a user runs them: a replayed campaign,
// a resume that redoes nothing, and a SIGKILL mid-campaign against a model
// served over loopback HTTP, after which nothing is lost, duplicated or asked
// for twice.
#include <doctest/doctest.h>

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <thread>

#include "base/fs.h"
#include "base/subprocess.h"
#include "base/text.h"
#include "build_info.h"
#include "eval/worker_launcher.h"
#include "http_server.h"
#include "test_support.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

base::ProcessResult run(const std::vector<std::string>& argv, std::vector<std::string> extra_env = {}) {
  base::SpawnOptions o;
  o.argv = argv;
  o.env = eval::current_environment();
  o.env.insert(o.env.end(), extra_env.begin(), extra_env.end());
  o.cwd = REFINERY_SOURCE_DIR_FOR_TESTS;
  o.timeout_seconds = 600;
  o.output_cap_bytes = 1 << 20;
  auto r = base::run_process(o);
  REQUIRE(r.ok());
  return *r;
}

std::vector<json> lines(const std::string& path) {
  std::vector<json> out;
  std::ifstream in(path);
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(json::parse(l));
  return out;
}

std::string temp_run_dir() {
  auto d = base::make_temp_dir(fs::temp_directory_path().string(), "refinery-run-test");
  REQUIRE(d.ok());
  return *d + "/run";
}

std::string reply_with(const std::string& text) {
  return json{{"choices", {{{"finish_reason", "stop"}, {"message", {{"content", text}}}}}},
              {"usage", {{"prompt_tokens", 1000}, {"completion_tokens", 200}}}}
      .dump();
}

// Writes a campaign over level1/19 at its small size on cpu, against an
// openai-style model served at `url`, with `strategy` (one strategy's YAML
// lines) and `extra_model_lines`; returns the config's path beside `out`.
std::string http_config(const std::string& out, const std::string& name, const std::string& url,
                        const std::string& strategy, const std::string& extra_model_lines = "") {
  std::string path = fs::path(out).parent_path().string() + "/" + name + ".yaml";
  std::ofstream(path) << "name: " << name << "\nproblems:\n  ids: [level1/19]\n  size: small\n"
                      << "models:\n  - name: local\n    provider: openai\n    model: test\n    base_url: " << url
                      << "/v1\n    api_key_env: REFINERY_TEST_API_KEY\n"
                      << extra_model_lines << "strategies:\n"
                      << strategy << "eval:\n  backend: cpu\n  trials: 2\n  timing_trials: 5\n  remeasure: 0\n";
  return path;
}

// The quickstart's campaign (its problems, responses and verdicts) on cpu, written beside `out`
// as NAME.yaml, timed more briefly (5 timed trials, no second measurement of an unstable timing),
// with `eval_lines` added: for tests that compare verdicts, not timings. Returns its path.
std::string quick_quickstart(const std::string& out, const std::string& name, const std::string& eval_lines = "") {
  std::string text = *base::read_file(std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/configs/quickstart.yaml");
  auto swap = [&](const std::string& from, const std::string& to) {
    REQUIRE_MESSAGE(text.find(from) != std::string::npos, from);
    text.replace(text.find(from), from.size(), to);
  };
  swap("replay_from: quickstart-responses.jsonl",
       "replay_from: " + std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/configs/quickstart-responses.jsonl");
  swap("  backend: auto\n", "  backend: cpu\n");
  swap("  timing_trials: 20\n", "  timing_trials: 5\n  remeasure: 0\n" + eval_lines);
  const std::string path = fs::path(out).parent_path().string() + "/" + name + ".yaml";
  std::ofstream(path) << text;
  return path;
}

const char* kRefine3 = "  - name: refine\n    kind: refine\n    turns: 3\n";
const char* kOnce = "  - name: once\n    kind: single_shot\n";

}  // namespace

TEST_SUITE("refinery run") {
  TEST_CASE("a replayed refinement: compile error, then correct, then no code; a rerun redoes nothing") {
    std::string out = temp_run_dir();
    auto first = run({REFINERY_BINARY_PATH, "run", "tests/fixtures/replay/relu_three_turns.yaml", "--out", out,
                      "--cache-dir", test_support::cache_dir()});
    CHECK_MESSAGE(first.exit_code == 0, first.err);
    auto attempts = lines(out + "/attempts.jsonl");
    REQUIRE(attempts.size() == 3);
    std::map<int, std::string> by_turn;
    for (const auto& a : attempts) by_turn[a["turn"].get<int>()] = a["status"];
    CHECK(by_turn[1] == "compile_error");
    CHECK(by_turn[2] == "correct");
    CHECK(by_turn[3] == "no_code");
    auto report = json::parse(*base::read_file(out + "/report.json"));
    const auto& turns = report["arms"][0]["turns"];
    CHECK(turns[0]["fast_p"]["0"] == 0.0);
    CHECK(turns[1]["fast_p"]["0"] == 1.0);
    CHECK(turns[2]["correct_rate"] == 1.0);
    CHECK(first.out.find("recorded x refine: 1 problems x 1 samples, 3 attempts") != std::string::npos);
    // cpu timings say so, in both forms of the report.
    CHECK(report["backends"] == json::array({"cpu"}));
    CHECK(base::starts_with(
        *base::read_file(out + "/report.txt"),
        "timings: cpu backend (host clock on this machine's CPU; these speedups are not GPU speedups)\n"));
    CHECK(attempts[0]["backend"] == "cpu");
    CHECK(fs::exists(out + "/attempts/recorded/refine/level1/19/s0/t2/candidate.cpp"));
    CHECK(fs::exists(out + "/attempts/recorded/refine/level1/19/s0/t2/result.json"));

    auto again = run({REFINERY_BINARY_PATH, "run", "tests/fixtures/replay/relu_three_turns.yaml", "--out", out,
                      "--cache-dir", test_support::cache_dir()});
    CHECK(again.exit_code == 0);
    CHECK(lines(out + "/attempts.jsonl").size() == 3);
    CHECK(lines(out + "/responses.jsonl").size() == 3);

    auto report_cmd = run({REFINERY_BINARY_PATH, "report", out, "--json"});
    CHECK(report_cmd.exit_code == 0);
    CHECK(json::parse(report_cmd.out)["arms"][0]["attempts"] == 3);
    fs::remove_all(fs::path(out).parent_path());
  }

  TEST_CASE("a quarantined speedup counts only once accepted; a static rejection is recorded and explained") {
    // Two replayed answers: zeros for level2/80 (whose output is identically
    // zero: correct, thousands of times faster, quarantined) and a ReLU that
    // reads the environment (rejected before it is compiled).
    std::string out = temp_run_dir();
    const std::string dir = fs::path(out).parent_path().string();
    const std::string zeros =
        "```cpp\n#include <torch/torch.h>\ntorch::Tensor forward(torch::Tensor x, torch::Tensor w, torch::Tensor b) {\n"
        "  return torch::zeros({x.size(0), 1}, x.options());\n}\n```\n";
    const std::string sneaky =
        "```cpp\n#include <torch/torch.h>\n#include <cstdlib>\ntorch::Tensor forward(torch::Tensor x) {\n"
        "  if (std::getenv(\"TIMED\")) return x;\n  return torch::relu(x);\n}\n```\n";
    std::ofstream(dir + "/answers.jsonl") << json{{"key", "m/once/level2/80/s0/t1"}, {"text", zeros}}.dump() << "\n"
                                          << json{{"key", "m/once/level1/19/s0/t1"}, {"text", sneaky}}.dump() << "\n";
    std::ofstream(dir + "/q.yaml") << "name: q\nproblems:\n  ids: [level1/19, level2/80]\n  size: small\n"
                                   << "models:\n  - name: m\n    provider: replay\n    replay_from: answers.jsonl\n"
                                   << "strategies:\n  - name: once\n    kind: single_shot\n"
                                   // max_uncertainty: the zeros take ~0.1 ms a call, timed one call a
                                   // window (the batch is the 50 ms reference's), and 5 trials of that
                                   // are a wide interval; this test is about the quarantine.
                                   << "eval:\n  backend: cpu\n  trials: 2\n  timing_trials: 5\n  max_uncertainty: 1\n"
                                   << "report:\n  thresholds: [0, 1]\n";
    auto first =
        run({REFINERY_BINARY_PATH, "run", dir + "/q.yaml", "--out", out, "--cache-dir", test_support::cache_dir()});
    REQUIRE_MESSAGE(first.exit_code == 0, first.err);
    std::map<std::string, json> by_problem;
    for (const auto& a : lines(out + "/attempts.jsonl")) by_problem[a["problem"]] = a;
    REQUIRE(by_problem.size() == 2);
    const json& degenerate = by_problem["level2/80"];
    CHECK(degenerate["status"] == "correct");
    REQUIRE_MESSAGE(degenerate.contains("quarantine"), degenerate.dump());
    CHECK(degenerate["quarantine"].get<std::string>().find("is above eval.quarantine_speedup (20.0x)") !=
          std::string::npos);
    const json& rejected = by_problem["level1/19"];
    CHECK(rejected["status"] == "rejected");
    CHECK(rejected["message"].get<std::string>().rfind("static check 'environment': line 4 uses std::getenv", 0) == 0);
    CHECK(rejected["feedback"].get<std::string>().find("## What the static checks found in your source\n\n- line 4: "
                                                       "std::getenv (environment, reject): ") != std::string::npos);
    CHECK_FALSE(fs::exists(out + "/attempts/m/once/level1/19/s0/t1/compile.log"));  // nothing was compiled

    auto report = json::parse(*base::read_file(out + "/report.json"));
    CHECK(report["arms"][0]["turns"][0]["fast_p"]["0"] == 0.5);  // correct counts
    CHECK(report["arms"][0]["turns"][0]["fast_p"]["1"] == 0.0);  // the held speedup does not
    CHECK(report["arms"][0]["quarantined"][0]["key"] == "m/once/level2/80/s0/t1");
    CHECK(first.out.find("quarantined: 1 correct attempt whose speedup waits for `refinery accept RUN KEY`") !=
          std::string::npos);

    auto wrong_key = run({REFINERY_BINARY_PATH, "accept", out, "m/once/level1/19/s0/t1"});
    CHECK(wrong_key.exit_code == 1);
    CHECK(wrong_key.err.find("m/once/level1/19/s0/t1: not quarantined (rejected), nothing to accept") !=
          std::string::npos);
    auto accepted = run({REFINERY_BINARY_PATH, "accept", out, "m/once/level2/80/s0/t1", "--note", "degenerate, known"});
    CHECK_MESSAGE(accepted.exit_code == 0, accepted.err);
    auto after = run({REFINERY_BINARY_PATH, "report", out, "--json"});
    REQUIRE(after.exit_code == 0);
    auto r = json::parse(after.out);
    CHECK(r["arms"][0]["turns"][0]["fast_p"]["1"] == 0.5);
    CHECK(r["arms"][0]["quarantine_accepted"] == 1);
    const auto accepted_lines = lines(out + "/accepted.jsonl");
    REQUIRE(accepted_lines.size() == 1);
    CHECK(accepted_lines[0]["note"] == "degenerate, known");
    fs::remove_all(dir);
  }

  TEST_CASE("a run folder written by refinery 0.1 still reports the same and resumes with nothing to do") {
    const std::string fixture = std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/tests/fixtures/runs/quickstart-0.1";
    const std::string out = temp_run_dir();
    fs::copy(fixture, out, fs::copy_options::recursive);
    // The frozen config reads its recorded responses from beside it.
    fs::copy_file(std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/configs/quickstart-responses.jsonl",
                  out + "/quickstart-responses.jsonl");
    // As 0.1 reported it, except its geomean: every correct attempt of the
    // fixture is unstable, so no geomean has anything behind it, and 0.1's
    // 0.000x (0 in report.json) is now shown as no figure ("-", null). Every
    // figure it had is the same. Figures added since (the total of tokens, the
    // speed of light: none on cpu) come beside them.
    // So is what was spent by each turn (attempts; no tokens, dollars or worker time in 0.1's records).
    json stored = json::parse(*base::read_file(fixture + "/report.json"));
    const auto recorded = lines(fixture + "/attempts.jsonl");
    for (auto& turn : stored["arms"][0]["turns"]) {
      REQUIRE(turn["geomean_speedup"] == 0.0);
      turn["geomean_speedup"] = nullptr;
      turn["sol_median"] = nullptr;
      turn["sol_chains"] = 0;
      int64_t by_then = 0;
      for (const auto& a : recorded) by_then += a["turn"].get<int>() <= turn["turn"].get<int>();
      turn["spent"] = {{"attempts", by_then}, {"dollars", 0.0}, {"gpu_seconds", 0.0}, {"tokens", 0}};
    }
    auto& tokens = stored["arms"][0]["tokens"];
    tokens["total"] = tokens["input"].get<int64_t>() + tokens["output"].get<int64_t>();
    std::string stored_text = *base::read_file(fixture + "/report.txt");
    for (size_t at; (at = stored_text.find(" 0.000x")) != std::string::npos;) stored_text.replace(at, 7, "      -");
    stored_text.insert(stored_text.find("  attempts: "),
                       "  geomean - at turns 1, 2, 3: no correct attempt whose speedup counts (see below)\n");

    auto report_cmd = run({REFINERY_BINARY_PATH, "report", out});
    CHECK_MESSAGE(report_cmd.exit_code == 0, report_cmd.err);
    CHECK(report_cmd.out == stored_text);
    CHECK(json::parse(*base::read_file(out + "/report.json")) == stored);

    const std::string attempts_before = *base::read_file(out + "/attempts.jsonl");
    auto resumed = run(
        {REFINERY_BINARY_PATH, "run", out + "/config.yaml", "--out", out, "--cache-dir", test_support::cache_dir()});
    CHECK_MESSAGE(resumed.exit_code == 0, resumed.err);
    CHECK(*base::read_file(out + "/attempts.jsonl") == attempts_before);
    CHECK(lines(out + "/responses.jsonl").size() == lines(fixture + "/responses.jsonl").size());
    CHECK(json::parse(*base::read_file(out + "/report.json")) == stored);
    CHECK_FALSE(fs::exists(out + "/attempts"));  // nothing was evaluated again

    // Left out on request: named in the report, out of the denominator.
    auto left = run({REFINERY_BINARY_PATH, "report", out, "--leave-out", "level1/19,level1/23", "--json"});
    CHECK_MESSAGE(left.exit_code == 0, left.err);
    const json narrowed = json::parse(left.out);
    CHECK(narrowed["left_out"]["problems"] == std::vector<std::string>{"level1/19", "level1/23"});
    CHECK(narrowed["left_out"]["patterns"] == std::vector<std::string>{"level1/19", "level1/23"});
    CHECK(narrowed["arms"][0]["attempts"] == stored["arms"][0]["attempts"]);
    auto nothing = run({REFINERY_BINARY_PATH, "report", out, "--leave-out", "set:nope"});
    CHECK(nothing.exit_code == 1);
    CHECK(nothing.err.find("leave_out") != std::string::npos);
    fs::remove_all(fs::path(out).parent_path());
  }

  TEST_CASE("a campaign run as 3 shards reports as the same campaign run whole; a shard folder is never mixed up") {
    std::string whole = temp_run_dir();
    std::string root = fs::path(whole).parent_path().string();
    std::string sharded = root + "/sharded";
    const std::string config = quick_quickstart(whole, "quick");
    auto one = run({REFINERY_BINARY_PATH, "run", config, "--out", whole, "--cache-dir", test_support::cache_dir()});
    REQUIRE_MESSAGE(one.exit_code == 0, one.err);
    size_t shard_attempts = 0;
    for (int i = 0; i < 3; ++i) {
      std::string dir = sharded + "/shards/" + std::to_string(i);
      auto r = run({REFINERY_BINARY_PATH, "run", config, "--shard", std::to_string(i) + "/3", "--out", dir,
                    "--cache-dir", test_support::cache_dir()});
      CHECK_MESSAGE(r.exit_code == 0, r.err);
      CHECK(json::parse(*base::read_file(dir + "/shard.json")) == json{{"index", i}, {"count", 3}});
      shard_attempts += lines(dir + "/attempts.jsonl").size();
    }
    CHECK(shard_attempts == lines(whole + "/attempts.jsonl").size());

    auto merged = run({REFINERY_BINARY_PATH, "report", sharded, "--json"});
    REQUIRE_MESSAGE(merged.exit_code == 0, merged.err);
    auto m = json::parse(merged.out);
    auto w = json::parse(*base::read_file(whole + "/report.json"));
    CHECK(m["shards"] == json{{"count", 3}, {"read", 3}, {"problems", json::array()}});
    CHECK(m["arms"][0]["attempts"] == w["arms"][0]["attempts"]);
    CHECK(m["arms"][0]["attempts_by_status"] == w["arms"][0]["attempts_by_status"]);
    for (size_t t = 0; t < w["arms"][0]["turns"].size(); ++t) {
      CHECK(m["arms"][0]["turns"][t]["correct_rate"] == w["arms"][0]["turns"][t]["correct_rate"]);
      CHECK(m["arms"][0]["turns"][t]["fast_p"]["0"] == w["arms"][0]["turns"][t]["fast_p"]["0"]);
    }
    CHECK(fs::exists(sharded + "/report.json"));

    // Shard 1's folder given to shard 2, or the whole run's folder given to a shard: refused.
    auto swapped = run({REFINERY_BINARY_PATH, "run", config, "--shard", "2/3", "--out", sharded + "/shards/1"});
    CHECK(swapped.exit_code == 1);
    CHECK(swapped.err.find("not shard 2/3") != std::string::npos);
    auto into_whole = run({REFINERY_BINARY_PATH, "run", config, "--shard", "0/3", "--out", whole});
    CHECK(into_whole.exit_code == 1);
    CHECK(into_whole.err.find("was not sharded") != std::string::npos);
    auto bad = run({REFINERY_BINARY_PATH, "run", config, "--shard", "3/3", "--out", root + "/bad"});
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("--shard") != std::string::npos);

    // A shard lost: the report says so and counts what it has.
    fs::remove_all(sharded + "/shards/2");
    auto partial = run({REFINERY_BINARY_PATH, "report", sharded, "--json"});
    REQUIRE_MESSAGE(partial.exit_code == 0, partial.err);
    CHECK(partial.err.find("shard 2 of 3 is missing") != std::string::npos);
    CHECK(json::parse(partial.out)["shards"]["read"] == 2);
    fs::remove_all(root);
  }

  TEST_CASE("a campaign on three cpu workers gives the verdicts of one worker, each saying which worker gave it") {
    std::string out = temp_run_dir();
    std::string root = fs::path(out).parent_path().string();
    auto three = run({REFINERY_BINARY_PATH, "run", quick_quickstart(out, "three", "  workers: 3\n"), "--out", out,
                      "--cache-dir", test_support::cache_dir()});
    REQUIRE_MESSAGE(three.exit_code == 0, three.err);
    auto one = run({REFINERY_BINARY_PATH, "run", quick_quickstart(out, "one"), "--out", root + "/one", "--cache-dir",
                    test_support::cache_dir()});
    REQUIRE_MESSAGE(one.exit_code == 0, one.err);
    std::map<std::string, std::string> by_key_three, by_key_one;
    std::set<int> devices;
    for (const auto& a : lines(out + "/attempts.jsonl")) {
      by_key_three[a["key"]] = a["status"];
      // Every verdict a worker gave (a compile error had none).
      if (a.contains("backend") && a["status"] != "compile_error") {
        REQUIRE(a.contains("device"));
        devices.insert(a["device"].get<int>());
      }
    }
    for (const auto& a : lines(root + "/one/attempts.jsonl")) {
      by_key_one[a["key"]] = a["status"];
      if (a.contains("backend") && a["status"] != "compile_error") CHECK(a["device"] == 0);
    }
    CHECK(by_key_three == by_key_one);
    CHECK(devices.size() > 1);
    for (int d : devices) CHECK((d >= 0 && d < 3));
    auto report = json::parse(*base::read_file(out + "/report.json"));
    REQUIRE(report.contains("devices"));
    CHECK(report["devices"]["retired"].empty());
    CHECK(base::read_file(out + "/report.txt")->find("devices: 0 (") != std::string::npos);
    fs::remove_all(root);
  }

  TEST_CASE("a changed config is refused without --force") {
    std::string out = temp_run_dir();
    REQUIRE(run({REFINERY_BINARY_PATH, "run", "tests/fixtures/replay/relu_three_turns.yaml", "--out", out,
                 "--cache-dir", test_support::cache_dir()})
                .exit_code == 0);
    std::string changed = fs::path(out).parent_path().string() + "/changed.yaml";
    std::string text =
        *base::read_file(std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/tests/fixtures/replay/relu_three_turns.yaml");
    const std::string relative = "replay_from: relu_three_turns.jsonl";
    text.replace(
        text.find(relative), relative.size(),
        "replay_from: " + std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/tests/fixtures/replay/relu_three_turns.jsonl");
    std::ofstream(changed) << text << "report:\n  thresholds: [1]\n";
    auto refused = run({REFINERY_BINARY_PATH, "run", changed, "--out", out});
    CHECK(refused.exit_code == 1);
    CHECK(refused.err.find("usage:") == std::string::npos);
    CHECK(refused.err.find("this run folder was started with another config") != std::string::npos);
    fs::remove_all(fs::path(out).parent_path());
  }

  TEST_CASE("SIGKILL mid-campaign, then resume: nothing lost, nothing twice, no response asked twice") {
    test_http::Server server({
        {200, reply_with("```cpp\n#include <ATen/core/Tensor.h>\nat::Tensor forward(at::Tensor x) { return x.relu() * "
                         "0.5; }\n```")},
        {200, reply_with(
                  "```cpp\n#include <ATen/core/Tensor.h>\nat::Tensor forward(at::Tensor x) { return x.relu(); }\n```")},
        {200, reply_with("```cpp\n#include <ATen/core/Tensor.h>\nat::Tensor forward(at::Tensor x) { return "
                         "x.clamp_min(0); }\n```")},
    });
    std::string out = temp_run_dir();
    std::string config =
        http_config(out, "http", server.url(), kRefine3, "    price: {input: 1, cached_input: 0.1, output: 4}\n");
    std::string cmd = std::string(REFINERY_BINARY_PATH) + " run " + config + " --out " + out + " --cache-dir " +
                      test_support::cache_dir() + " > /dev/null 2>&1 & pid=$!; " + "while [ ! -s " + out +
                      "/attempts.jsonl ]; do sleep 0.05; done; kill -9 $pid; wait $pid; true";
    auto killed = run({"/bin/sh", "-c", cmd}, {"REFINERY_TEST_API_KEY=sk-test"});
    CHECK(killed.exit_code == 0);
    size_t before = lines(out + "/attempts.jsonl").size();
    CHECK(before >= 1);
    auto resumed = run({REFINERY_BINARY_PATH, "run", config, "--out", out, "--cache-dir", test_support::cache_dir()},
                       {"REFINERY_TEST_API_KEY=sk-test"});
    CHECK_MESSAGE(resumed.exit_code == 0, resumed.err);
    auto attempts = lines(out + "/attempts.jsonl");
    std::set<std::string> keys;
    for (const auto& a : attempts) keys.insert(a["key"].get<std::string>());
    CHECK(attempts.size() == 3);
    CHECK(keys.size() == 3);
    CHECK(server.received().size() == 3);  // each turn's response requested exactly once
    auto report = json::parse(*base::read_file(out + "/report.json"));
    CHECK(report["arms"][0]["cost_usd"].get<double>() == doctest::Approx(3 * (1000 * 1.0 + 200 * 4.0) / 1e6));
    MESSAGE("attempts recorded before the kill: ", before);
    fs::remove_all(fs::path(out).parent_path());
  }

  TEST_CASE(
      "beam and evolve on replay, SIGKILLed at five random moments: the uninterrupted run's tree, nothing twice") {
    // Replayed answers by sample: 1 is correct, 0 and 4 compute something else, the rest hold no code;
    // so every ranking is decided by correctness, not by timing noise, and the tree is the same each time.
    const std::string dir = fs::path(temp_run_dir()).parent_path().string();
    const std::string correct =
        "```cpp\n#include <ATen/core/Tensor.h>\nat::Tensor forward(at::Tensor x) { return "
        "x.relu(); }\n```";
    const std::string wrong =
        "```cpp\n#include <ATen/core/Tensor.h>\nat::Tensor forward(at::Tensor x) { return "
        "x.relu() * 0.5; }\n```";
    {
      std::ofstream replay(dir + "/search.jsonl");
      for (int s = 0; s < 12; ++s)
        for (int t = 1; t <= 3; ++t)
          replay << json{{"key", "m/any/level1/19/s" + std::to_string(s) + "/t" + std::to_string(t)},
                         {"text", s == 1             ? correct
                                  : s == 0 || s == 4 ? wrong
                                                     : "No kernel this time."}}
                        .dump()
                 << "\n";
    }
    const std::string config = dir + "/search.yaml";
    std::ofstream(config) << "name: search\nproblems:\n  ids: [level1/19]\n  size: small\n"
                          << "models:\n  - name: m\n    provider: replay\n    replay_from: search.jsonl\n"
                          << "strategies:\n  - name: beam\n    kind: beam\n    width: 2\n    branch: 2\n    turns: 3\n"
                          << "  - name: evolve\n    kind: evolve\n    islands: 2\n    per_island: 2\n"
                          << "    inspirations: 1\n    migrate_every: 1\n    turns: 3\n"
                          << "eval:\n  backend: cpu\n  trials: 2\n  timing_trials: 5\n  remeasure: 0\n";
    const std::string refinery =
        std::string(REFINERY_BINARY_PATH) + " run " + config + " --cache-dir " + test_support::cache_dir() + " --out ";
    auto whole = run({"/bin/sh", "-c", refinery + dir + "/whole > /dev/null 2>&1"});
    REQUIRE(whole.exit_code == 0);
    std::random_device device;
    const unsigned seed = device();
    std::mt19937 draw(seed);
    std::uniform_int_distribution<int> moment_ms(100, 2500);
    std::string moments;
    for (int kill = 0; kill < 5; ++kill) {
      const int ms = moment_ms(draw);
      moments += (moments.empty() ? "" : ", ") + std::to_string(ms) + " ms";
      run({"/bin/sh", "-c",
           refinery + dir + "/killed > /dev/null 2>&1 & pid=$!; sleep " + base::format_number(ms / 1000.0) +
               "; kill -9 $pid 2> /dev/null; wait $pid; true"});
    }
    MESSAGE("SIGKILL after ", moments, " (seed ", seed, ")");
    auto resumed = run({"/bin/sh", "-c", refinery + dir + "/killed"});
    CHECK_MESSAGE(resumed.exit_code == 0, resumed.err);
    auto tree_of = [](const std::string& folder) {
      std::map<std::string, std::string> tree;  // key -> status and parent
      for (const auto& a : lines(folder + "/attempts.jsonl")) {
        std::string parent = a.contains("parent") ? a["parent"].dump() : "none";
        CHECK_MESSAGE(tree.emplace(a["key"].get<std::string>(), a["status"].get<std::string>() + " " + parent).second,
                      a["key"], " recorded twice in ", folder);
      }
      return tree;
    };
    const auto expected = tree_of(dir + "/whole");
    CHECK(expected.size() == 8 + 12);  // beam: 4 + 2 + 2 (one correct kernel to branch from); evolve: 3 x 4
    CHECK(tree_of(dir + "/killed") == expected);
    std::set<std::string> asked;
    for (const auto& r : lines(dir + "/killed/responses.jsonl"))
      CHECK_MESSAGE(asked.insert(r["key"].get<std::string>()).second, r["key"], " asked twice");
    CHECK(asked.size() == expected.size());
    // The evolve search's tree as the report prints it.
    auto tree = run({REFINERY_BINARY_PATH, "report", dir + "/killed", "--tree", "level1/19"});
    CHECK(tree.exit_code == 0);
    CHECK(tree.out.find("m/evolve at level1/19: 12 attempts\n") != std::string::npos);
    CHECK(tree.out.find("m/beam at level1/19: 8 attempts\n") != std::string::npos);
    CHECK(tree.out.find("├─ s1/t1  correct") != std::string::npos);
    MESSAGE(tree.out);
    fs::remove_all(dir);
  }

  TEST_CASE("a model that fails for good records nothing; the resumed run asks again") {
    test_http::Server server({
        {401, R"({"error":{"message":"Incorrect API key provided"}})"},
        {200, reply_with(
                  "```cpp\n#include <ATen/core/Tensor.h>\nat::Tensor forward(at::Tensor x) { return x.relu(); }\n```")},
    });
    std::string out = temp_run_dir();
    std::string config = http_config(out, "fail", server.url(), kOnce);
    auto first = run({REFINERY_BINARY_PATH, "run", config, "--out", out, "--cache-dir", test_support::cache_dir()},
                     {"REFINERY_TEST_API_KEY=sk-wrong"});
    CHECK(first.exit_code == 0);
    CHECK(
        first.err.find("local/once/level1/19/s0/t1: model 'local': HTTP 401: Incorrect API key provided (not retried) "
                       "(this chain continues when the run is resumed)") != std::string::npos);
    CHECK(lines(out + "/attempts.jsonl").empty());
    CHECK(lines(out + "/responses.jsonl").empty());
    auto second = run({REFINERY_BINARY_PATH, "run", config, "--out", out, "--cache-dir", test_support::cache_dir()},
                      {"REFINERY_TEST_API_KEY=sk-right"});
    CHECK(second.exit_code == 0);
    auto attempts = lines(out + "/attempts.jsonl");
    REQUIRE(attempts.size() == 1);
    CHECK(attempts[0]["status"] == "correct");
    CHECK(server.received().size() == 2);
    CHECK(server.received()[1].headers["authorization"] == "Bearer sk-right");
    fs::remove_all(fs::path(out).parent_path());
  }

  TEST_CASE("two runs on one folder at once: the second is refused naming the first; nothing is asked twice") {
    const std::string ok =
        reply_with("```cpp\n#include <ATen/core/Tensor.h>\nat::Tensor forward(at::Tensor x) { return x.relu(); }\n```");
    test_http::Server server({{200, ok, {}, 1500}, {200, ok, {}, 1500}, {200, ok, {}, 1500}});
    std::string out = temp_run_dir();
    std::string config = http_config(out, "twice", server.url(), kRefine3);
    const std::string refinery = std::string(REFINERY_BINARY_PATH) + " run " + config + " --out " + out +
                                 " --cache-dir " + test_support::cache_dir();
    auto both = run({"/bin/sh", "-c",
                     refinery + " > /dev/null 2>&1 & first=$!; while [ ! -s " + out + "/lock ]; do sleep 0.02; done; " +
                         refinery + "; echo second=$?; wait $first; echo first=$?"},
                    {"REFINERY_TEST_API_KEY=sk-test"});
    CHECK(both.out.find("second=1") != std::string::npos);
    CHECK(both.out.find("first=0") != std::string::npos);
    CHECK(both.err.find(out + ": another refinery run (pid ") != std::string::npos);
    CHECK(both.err.find(") is writing this run folder; wait for it to end, or use another --out") != std::string::npos);
    auto attempts = lines(out + "/attempts.jsonl");
    std::set<std::string> keys;
    for (const auto& a : attempts) keys.insert(a["key"].get<std::string>());
    CHECK(attempts.size() == 3);
    CHECK(keys.size() == 3);
    CHECK(server.received().size() == 3);
    // The lock went with the first run: a third one resumes, finds everything done and asks nothing.
    auto third = run({"/bin/sh", "-c", refinery}, {"REFINERY_TEST_API_KEY=sk-test"});
    CHECK_MESSAGE(third.exit_code == 0, third.err);
    CHECK(server.received().size() == 3);
    fs::remove_all(fs::path(out).parent_path());
  }

  TEST_CASE("Ctrl-C during a long Retry-After ends the run at once; the resumed run asks again") {
    test_http::Server server(
        {{429, R"({"error":{"message":"slow down"}})", {{"Retry-After", "100000"}}},
         {200,
          reply_with(
              "```cpp\n#include <ATen/core/Tensor.h>\nat::Tensor forward(at::Tensor x) { return x.relu(); }\n```")}});
    std::string out = temp_run_dir();
    std::string config = http_config(out, "wait", server.url(), kOnce);
    const std::string pidfile = fs::path(out).parent_path().string() + "/pid";
    const std::string refinery = std::string(REFINERY_BINARY_PATH) + " run " + config + " --out " + out +
                                 " --cache-dir " + test_support::cache_dir();
    base::ProcessResult waited;
    std::thread runner([&] {
      waited = run({"/bin/sh", "-c", refinery + " & echo $! > " + pidfile + "; wait $!; echo code=$?"},
                   {"REFINERY_TEST_API_KEY=sk-test"});
    });
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (server.received().empty() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // into the wait
    auto pid = base::read_file(pidfile);
    REQUIRE(pid.ok());
    auto sent = std::chrono::steady_clock::now();
    ::kill(std::stoi(*pid), SIGINT);
    runner.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
    CHECK_MESSAGE(seconds < 5, "the run took " << seconds << " s to stop");
    CHECK_MESSAGE(waited.out.find("code=130") != std::string::npos, waited.out, waited.err);
    CHECK(waited.out.find("stopped; run the same command again to resume") != std::string::npos);
    CHECK(lines(out + "/attempts.jsonl").empty());
    CHECK(server.received().size() == 1);
    auto resumed = run({"/bin/sh", "-c", refinery}, {"REFINERY_TEST_API_KEY=sk-test"});
    CHECK_MESSAGE(resumed.exit_code == 0, resumed.err);
    auto attempts = lines(out + "/attempts.jsonl");
    REQUIRE(attempts.size() == 1);
    CHECK(attempts[0]["status"] == "correct");
    CHECK(server.received().size() == 2);
    fs::remove_all(fs::path(out).parent_path());
  }

  TEST_CASE("config and flag errors exit 1 or 2 as the README says, with the usage text only for usage") {
    std::string out = temp_run_dir();
    const std::string dir = fs::path(out).parent_path().string();
    std::ofstream(dir + "/bad.yaml")
        << "name: bad\nproblems:\n  ids: [level1/19]\nmodels:\n  - name: m\n    provider: replay\n"
           "    replay_from: x.jsonl\nstrategies:\n  - name: s\n    kind: refine\n    turns: 4294967296\n";
    auto bad = run({REFINERY_BINARY_PATH, "run", dir + "/bad.yaml", "--out", out});
    CHECK(bad.exit_code == 1);
    CHECK(bad.err.find("bad.yaml:11:12: 'turns' must be between 1 and 100, got 4294967296") != std::string::npos);
    CHECK(bad.err.find("usage:") == std::string::npos);
    std::ofstream(dir + "/unknown.yaml")
        << "name: unknown\nproblems:\n  ids: [level9/1]\nmodels:\n  - name: m\n"
           "    provider: replay\n    replay_from: x.jsonl\nstrategies:\n  - name: s\n    kind: refine\n";
    auto unknown = run({REFINERY_BINARY_PATH, "run", dir + "/unknown.yaml", "--out", out});
    CHECK(unknown.exit_code == 1);
    CHECK(unknown.err.find("unknown problem 'level9/1'") != std::string::npos);
    CHECK(unknown.err.find("usage:") == std::string::npos);
    std::ofstream(dir + "/key.yaml")
        << "name: key\nproblems:\n  ids: [level1/19]\nmodels:\n  - name: m\n    provider: openai\n"
           "    model: x\n    api_key_env: REFINERY_UNSET_KEY_FOR_TESTS\nstrategies:\n  - name: s\n    kind: refine\n";
    auto key = run({REFINERY_BINARY_PATH, "run", dir + "/key.yaml", "--out", out});
    CHECK(key.exit_code == 1);
    CHECK(key.err.find("the environment variable REFINERY_UNSET_KEY_FOR_TESTS is not set") != std::string::npos);
    CHECK(key.err.find("usage:") == std::string::npos);
    auto unwritable = run({REFINERY_BINARY_PATH, "run", "configs/quickstart.yaml", "--out", "/proc/refinery-run"});
    CHECK(unwritable.exit_code == 1);
    CHECK(unwritable.err.find("/proc/refinery-run: cannot create run folder") != std::string::npos);
    auto threads = run({REFINERY_BINARY_PATH, "run", "configs/quickstart.yaml", "--threads", "abc"});
    CHECK(threads.exit_code == 2);
    CHECK(threads.err.find("--threads must be an integer between 1 and 1024, got 'abc'") != std::string::npos);
    CHECK(threads.err.find("usage: refinery run CONFIG [flags]") != std::string::npos);
    fs::remove_all(dir);
  }
  TEST_CASE("KernelBench's prompt: the PyTorch reference and an example shown, a Python ModelNew taken") {
    if (!REFINERY_PYTHON_FOUND) {
      MESSAGE("skipped: refinery was built without a Python whose torch is its LibTorch (python3-torch)");
      return;
    }
    std::string out = temp_run_dir();
    auto r = run({REFINERY_BINARY_PATH, "run", "tests/fixtures/replay/kernelbench_two_turns.yaml", "--out", out,
                  "--cache-dir", test_support::cache_dir()});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    auto attempts = lines(out + "/attempts.jsonl");
    REQUIRE(attempts.size() == 2);
    std::map<int, json> by_turn;
    for (const auto& a : attempts) by_turn[a["turn"].get<int>()] = a;
    CHECK(by_turn[1]["status"] == "no_code");
    CHECK_MESSAGE(by_turn[1]["message"].get<std::string>().find("class ModelNew") != std::string::npos,
                  by_turn[1]["message"]);
    CHECK_MESSAGE(by_turn[2]["status"] == "correct", by_turn[2]);
    CHECK(by_turn[2]["language"] == "python");
    const std::string dir = out + "/attempts/recorded/kb/level1/19/s0/";
    CHECK(fs::exists(dir + "t2/candidate.py"));
    auto prompt = base::read_file(dir + "t1/prompt.md");
    REQUIRE(prompt.ok());
    for (const char* shown : {"class Model(nn.Module)", "def get_inputs()", "Write `ModelNew`",
                              "custom C++ kernels for the CPU, compiled with torch.utils.cpp_extension.load_inline",
                              "relu_add = load_inline(", "Python (a ModelNew module) with C++ kernels"})
      CHECK_MESSAGE(prompt->find(shown) != std::string::npos, shown);
    CHECK(prompt->find("```cpp") == std::string::npos);  // not refinery's own prompt
    fs::remove_all(fs::path(out).parent_path());
  }
}
