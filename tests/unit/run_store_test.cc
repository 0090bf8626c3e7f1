#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include <unistd.h>

#include "agent/campaign/run_store.h"
#include "base/fs.h"
#include "test_support.h"

namespace fs = std::filesystem;
using agent::Attempt;
using agent::AttemptKey;
using agent::RunStore;

namespace {
using test_support::TempDir;
const AttemptKey kFirst{"gpt", "refine", "level1/19", 0, 1};
const AttemptKey kSecond{"gpt", "refine", "level1/19", 0, 2};

Attempt record(const AttemptKey& key, agent::AttemptStatus status, std::optional<double> speedup = std::nullopt,
               const std::string& response = "", const std::string& feedback = "") {
  Attempt a;
  a.key = key;
  a.status = status;
  a.speedup = speedup;
  a.evaluated = true;
  a.backend = "cpu";
  a.response_text = response;
  a.feedback = feedback;
  return a;
}
}  // namespace

TEST_SUITE("agent::RunStore") {
  TEST_CASE("one writer at a time: a second is an error naming the first's pid; readers need no lock") {
    TempDir dir;
    std::optional<RunStore> first;
    {
      auto s = RunStore::open(dir.path, "name: a\n", false);
      REQUIRE(s.ok());
      first.emplace(std::move(s).value());
    }
    auto second = RunStore::open(dir.path, "name: a\n", false);
    REQUIRE_FALSE(second.ok());
    CHECK(second.error().message == dir.path + ": another refinery run (pid " + std::to_string(getpid()) +
                                        ") is writing this run folder; wait for it to end, or use another --out");
    auto reader = RunStore::open(dir.path, "name: a\n", false, /*exclusive=*/false);
    CHECK(reader.ok());
    first.reset();  // the lock goes with the store
    CHECK(RunStore::open(dir.path, "name: a\n", false).ok());
  }

  TEST_CASE("records survive reopening, in the order they finished") {
    TempDir dir;
    {
      auto store = RunStore::open(dir.path, "name: a\n", false);
      REQUIRE(store.ok());
      CHECK(store->record_response(kFirst, {.text = "```cpp\n...```"}).ok());
      CHECK(store->record_attempt(record(kSecond, agent::AttemptStatus::mismatch)).ok());
      CHECK(store->record_attempt(record(kFirst, agent::AttemptStatus::correct, 1.5)).ok());
    }
    auto store = RunStore::open(dir.path, "name: a\n", false);
    REQUIRE(store.ok());
    CHECK(store->warnings().empty());
    REQUIRE(store->response(kFirst).has_value());
    CHECK(store->response(kFirst)->text == "```cpp\n...```");
    CHECK_FALSE(store->response(kSecond).has_value());
    auto all = store->attempts();
    REQUIRE(all.size() == 2);
    CHECK(all[0].key.str() == "gpt/refine/level1/19/s0/t2");
    CHECK(all[1].speedup == 1.5);
    CHECK(all[1].key.turn == 1);
    CHECK(all[1].key.problem == "level1/19");
  }

  TEST_CASE("an attempt is recorded once") {
    TempDir dir;
    auto store = RunStore::open(dir.path, "x", false);
    REQUIRE(store.ok());
    REQUIRE(store->record_attempt(record(kFirst, agent::AttemptStatus::correct)).ok());
    auto again = store->record_attempt(record(kFirst, agent::AttemptStatus::correct));
    REQUIRE_FALSE(again.ok());
    CHECK(again.error().message == "attempt gpt/refine/level1/19/s0/t1 is already recorded");
  }

  TEST_CASE("another config is refused unless forced, and the old one is kept") {
    TempDir dir;
    REQUIRE(RunStore::open(dir.path, "seed: 1\n", false).ok());
    auto refused = RunStore::open(dir.path, "seed: 2\n", false);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message ==
          dir.path + ": this run folder was started with another config (" + dir.path +
              "/config.yaml); use another --out, or --force to continue it with the new one");
    REQUIRE(RunStore::open(dir.path, "seed: 2\n", true).ok());
    CHECK(*base::read_file(dir.path + "/config.yaml") == "seed: 2\n");
    CHECK(*base::read_file(dir.path + "/config.yaml.1") == "seed: 1\n");
  }

  TEST_CASE("a torn last line and duplicates are skipped with a warning, nothing else lost") {
    TempDir dir;
    {
      auto store = RunStore::open(dir.path, "x", false);
      REQUIRE(store.ok());
      REQUIRE(store->record_attempt(record(kFirst, agent::AttemptStatus::correct)).ok());
    }
    std::ofstream(dir.path + "/attempts.jsonl", std::ios::app)
        << "{\"key\":\"gpt/refine/level1/19/s0/t1\",\"status\":\"mismatch\"}\n{\"key\":\"gpt/ref";
    auto store = RunStore::open(dir.path, "x", false);
    REQUIRE(store.ok());
    REQUIRE(store->warnings().size() == 2);
    CHECK(store->warnings()[0] == "attempts.jsonl:2: duplicate of gpt/refine/level1/19/s0/t1 ignored");
    CHECK(store->warnings()[1] == "attempts.jsonl:3: unreadable line skipped (torn by an interrupted write)");
    REQUIRE(store->attempts().size() == 1);
    CHECK(store->attempts()[0].status == agent::AttemptStatus::correct);
    // The next record starts a line of its own, and both survive another reopening.
    REQUIRE(store->record_attempt(record(kSecond, agent::AttemptStatus::timeout)).ok());
    auto reopened = RunStore::open(dir.path, "x", false, /*exclusive=*/false);  // a reader beside the writer
    REQUIRE(reopened.ok());
    REQUIRE(reopened->attempts().size() == 2);
    CHECK(reopened->attempts()[1].status == agent::AttemptStatus::timeout);
    CHECK(reopened->attempt(kSecond)->status == agent::AttemptStatus::timeout);
  }

  TEST_CASE("a line whose fields have the wrong types is skipped with a warning naming the field") {
    TempDir dir;
    {
      auto store = RunStore::open(dir.path, "x", false);
      REQUIRE(store.ok());
      REQUIRE(store->record_attempt(record(kFirst, agent::AttemptStatus::correct, 2.0)).ok());
    }
    std::ofstream(dir.path + "/attempts.jsonl", std::ios::app)
        << "{\"key\":\"gpt/refine/level1/19/s0/t2\",\"model\":\"gpt\",\"strategy\":\"refine\","
           "\"problem\":\"level1/19\",\"turn\":\"two\",\"status\":\"correct\"}\n";
    auto store = RunStore::open(dir.path, "x", false);
    REQUIRE(store.ok());
    REQUIRE(store->warnings().size() == 1);
    CHECK(store->warnings()[0] ==
          "attempts.jsonl: gpt/refine/level1/19/s0/t2: attempt record: turn is not an integer; skipped");
    REQUIRE(store->attempts().size() == 1);
    CHECK(store->attempts()[0].speedup == 2.0);
  }

  TEST_CASE("the summaries leave out the long texts, which are read back whole") {
    TempDir dir;
    auto store = RunStore::open(dir.path, "x", false);
    REQUIRE(store.ok());
    REQUIRE(
        store->record_attempt(record(kFirst, agent::AttemptStatus::correct, 1.2, "```cpp\nk\n```", "Correct, 1.2x."))
            .ok());
    REQUIRE(store->record_attempt(record(kSecond, agent::AttemptStatus::mismatch, std::nullopt, "", "Wrong.")).ok());
    auto summary = store->attempts()[0];
    CHECK(summary.response_text.empty());
    CHECK(summary.feedback.empty());
    CHECK(summary.speedup == 1.2);
    auto whole = store->attempt(kFirst);
    REQUIRE(whole.has_value());
    CHECK(whole->response_text == "```cpp\nk\n```");
    CHECK(whole->feedback == "Correct, 1.2x.");
    CHECK(store->attempt(kSecond)->feedback == "Wrong.");
  }

  TEST_CASE("artifact folders follow the attempt's key") {
    TempDir dir;
    auto store = RunStore::open(dir.path, "x", false);
    REQUIRE(store.ok());
    auto p = store->artifact_dir(kSecond);
    REQUIRE(p.ok());
    CHECK(*p == dir.path + "/attempts/gpt/refine/level1/19/s0/t2");
    CHECK(fs::is_directory(*p));
  }
}
