#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "agent/eval_keys.h"

namespace {

using Strings = std::vector<std::string>;

// A sample value, not the default, for every row of the table: as YAML under
// `eval:` (rows with a key) and as command-line arguments (rows with a flag).
struct Sample {
  std::string yaml;
  Strings argv;
};

const std::map<std::string, Sample> kSamples = {
    {"backend", {"cuda", {"--backend", "cuda"}}},
    {"size", {"", {"--size", "full"}}},
    {"timeout", {"12.5", {"--timeout", "12.5"}}},
    {"trials", {"7", {"--trials", "7"}}},
    {"atol", {"0.003", {"--atol", "0.003"}}},
    {"rtol", {"0.004", {"--rtol", "0.004"}}},
    {"timing_trials", {"5", {"--timing-trials", "5"}}},
    {"no-timing", {"", {"--no-timing"}}},
    {"launch_watch", {"false", {"--no-launch-watch"}}},
    {"timing_trace", {"true", {"--timing-trace"}}},
    {"seed", {"", {"--seed", "42"}}},
    {"entropy", {"", {"--entropy", "0123456789abcdef0123456789abcdef"}}},
    {"batch-calls", {"", {"--batch-calls", "8"}}},
    {"threads", {"3", {"--threads", "3"}}},
    {"devices", {"[0, 2]", {"--devices", "0,2"}}},
    {"workers", {"4", {"--workers", "4"}}},
    {"standby", {"on", {"--standby", "on"}}},
    {"cuda_arch", {"80", {"--cuda-arch", "80"}}},
    {"cache-dir", {"", {"--cache-dir", "/tmp/cache"}}},
    {"cache_max_size", {"500MB", {"--cache-max-size", "500MB"}}},
    {"problems", {"", {"--problems", "/tmp/problems"}}},
    {"profile", {"", {"--profile"}}},
    {"profiler", {"ncu", {"--profiler", "ncu"}}},
    {"metrics", {"[a, b]", {"--metrics", "a,b"}}},
    {"keep", {"", {"--keep"}}},
    {"max_uncertainty", {"0.2", {"--max-uncertainty", "0.2"}}},
    {"remeasure", {"3", {"--remeasure", "3"}}},
    {"hidden_shapes", {"3", {"--hidden-shapes", "3"}}},
    {"precision", {"bf16", {"--precision", "bf16"}}},
    {"allow_untrusted", {"true", {"--allow-untrusted"}}},
    {"compile_memory_gib", {"4.5", {"--compile-memory-gib", "4.5"}}},
    {"lean_headers", {"false", {"--full-headers"}}},
    {"compat", {"kernelbench", {"--compat", "kernelbench"}}},
    {"static_checks", {"{threads: reject, timers: off}", {"--static-checks", "threads=reject,timers=off"}}},
    {"quarantine_speedup", {"50", {"--quarantine-speedup", "50"}}},
    {"library_only", {"reject", {"--library-only", "reject"}}},
};

std::string name_of(const agent::EvalKey& row) {
  return row.key.empty() ? row.flag : row.key;
}

eval::EvalSettings from_yaml(const std::string& key, const std::string& value) {
  auto doc = base::yaml::Document::parse("eval:\n  " + key + ": " + value + "\n", "exp.yaml");
  REQUIRE(doc.ok());
  eval::EvalSettings settings;
  auto decoded = agent::decode_eval_section(*doc, doc->root()["eval"], settings);
  REQUIRE_MESSAGE(decoded.ok(), (decoded.ok() ? "" : decoded.error().message));
  return settings;
}

eval::EvalSettings from_flags(const Strings& argv) {
  auto args = agent::parse_args(argv, agent::eval_flags());
  REQUIRE_MESSAGE(args.ok(), (args.ok() ? "" : args.error().message));
  auto settings = agent::eval_settings_from_args(*args);
  REQUIRE_MESSAGE(settings.ok(), (settings.ok() ? "" : settings.error().message));
  return *settings;
}

}  // namespace

TEST_SUITE("agent::eval_keys") {
  TEST_CASE("every key decodes to the same setting from YAML and from its flag") {
    for (const auto& row : agent::eval_keys()) {
      const std::string name = name_of(row);
      CAPTURE(name);
      auto sample = kSamples.find(name);
      const std::string missing = "no sample value for the row " + name;
      REQUIRE_MESSAGE(sample != kSamples.end(), missing);
      if (!row.key.empty()) CHECK(from_yaml(row.key, sample->second.yaml) != eval::EvalSettings{});
      if (!row.flag.empty()) CHECK(from_flags(sample->second.argv) != eval::EvalSettings{});
      if (!row.key.empty() && !row.flag.empty())
        CHECK(from_yaml(row.key, sample->second.yaml) == from_flags(sample->second.argv));
    }
    CHECK(kSamples.size() == agent::eval_keys().size());
  }

  TEST_CASE("the rows without a key or a flag, each with its reason") {
    Strings without_key, without_flag;
    for (const auto& row : agent::eval_keys()) {
      if (row.key.empty()) without_key.push_back(row.flag);
      if (row.flag.empty()) without_flag.push_back(row.key);
      CAPTURE(name_of(row));
      CHECK(row.why_not.empty() == (!row.key.empty() && !row.flag.empty()));
    }
    CHECK(without_key ==
          Strings{"size", "no-timing", "seed", "entropy", "batch-calls", "cache-dir", "problems", "profile", "keep"});
    CHECK(without_flag.empty());
  }

  TEST_CASE("the flags' help comes from the table, and --json is added") {
    const auto& flags = agent::eval_flags();
    REQUIRE(flags.size() == agent::eval_keys().size() + 2);  // and --runners, the old name of --workers
    CHECK(flags.back().name == "json");
    CHECK(agent::flags_help(flags).find("  --atol VALUE             absolute tolerance over the problem's") !=
          std::string::npos);
  }

  TEST_CASE("--profiler wins over --profile, whatever their order") {
    CHECK(from_flags({"--profiler", "ncu", "--profile"}).asked.profiler == eval::Profiler::ncu);
    CHECK(from_flags({"--profile"}).asked.profiler == eval::Profiler::cupti);
  }

  TEST_CASE(
      "an old name (runners, now workers) is the same setting with a deprecation note; both at once is an error") {
    auto doc = base::yaml::Document::parse("eval:\n  runners: 3\n", "exp.yaml");
    REQUIRE(doc.ok());
    eval::EvalSettings by_old;
    std::vector<std::string> notes;
    REQUIRE(agent::decode_eval_section(*doc, doc->root()["eval"], by_old, &notes).ok());
    CHECK(by_old == from_yaml("workers", "3"));
    CHECK(notes == Strings{"eval.runners is deprecated: it is now eval.workers (the same setting)"});

    auto args = agent::parse_args({"--runners", "3"}, agent::eval_flags());
    REQUIRE(args.ok());
    notes.clear();
    auto flagged = agent::eval_settings_from_args(*args, &notes);
    REQUIRE(flagged.ok());
    CHECK(*flagged == from_flags({"--workers", "3"}));
    CHECK(notes == Strings{"--runners is deprecated: it is now --workers (the same setting)"});

    auto both = base::yaml::Document::parse("eval:\n  workers: 2\n  runners: 3\n", "exp.yaml");
    REQUIRE(both.ok());
    eval::EvalSettings settings;
    auto decoded = agent::decode_eval_section(*both, both->root()["eval"], settings);
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error().message.find("exp.yaml:3:12: 'runners' is the old name of 'workers': give only 'workers'") ==
          0);
    auto both_flags = agent::parse_args({"--workers", "2", "--runners", "3"}, agent::eval_flags());
    REQUIRE(both_flags.ok());
    auto refused = agent::eval_settings_from_args(*both_flags);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message == "--runners is the old name of --workers: give only --workers");
  }

  TEST_CASE("an unknown key of eval: is an error with the closest one") {
    auto doc = base::yaml::Document::parse("eval:\n  atoll: 1\n", "exp.yaml");
    REQUIRE(doc.ok());
    eval::EvalSettings settings;
    auto decoded = agent::decode_eval_section(*doc, doc->root()["eval"], settings);
    REQUIRE_FALSE(decoded.ok());
    CHECK(decoded.error().message.find("exp.yaml:2:3: unknown key 'atoll' in eval (did you mean 'atol'?)") == 0);
  }
}
