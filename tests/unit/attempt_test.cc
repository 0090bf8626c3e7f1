// The attempt record (agent/campaign/attempt.h): one writer, one reader, and
// the records refinery 0.1 wrote read back unchanged.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <string>

#include "agent/campaign/attempt.h"
#include "agent/campaign/response.h"

using agent::Attempt;
using nlohmann::json;

namespace {

Attempt evaluated() {
  Attempt a;
  a.key = {"gpt", "refine", "level1/19", 2, 3};
  a.status = agent::AttemptStatus::correct;
  a.message = "correct; speedup 1.500x";
  a.evaluated = true;
  a.backend = "cuda";
  a.mode = "kernelbench";
  a.speedup = 1.5;
  a.candidate_ms = 2.0;
  a.reference_ms = 3.0;
  a.unstable = true;
  a.truncated = true;
  a.library_only = true;
  a.usage = {100, 20, 300, 40, "output_tokens above max_output_tokens"};
  a.cost_usd = 0.25;
  a.response_text = "```cpp\n// k\n```";
  a.feedback = "Correct.";
  return a;
}

}  // namespace

TEST_SUITE("agent::Attempt") {
  TEST_CASE("every field written is read back") {
    const Attempt a = evaluated();
    json j = agent::to_json(a);
    CHECK(j["key"] == "gpt/refine/level1/19/s2/t3");
    auto back = agent::attempt_from_json(json::parse(j.dump()));
    REQUIRE(back.ok());
    CHECK(agent::to_json(*back) == j);
    CHECK(back->key.str() == a.key.str());
    CHECK(back->usage.invalid == a.usage.invalid);
    CHECK(back->mode == "kernelbench");
    CHECK(back->correct_speedup() == 1.5);
    CHECK(back->library_only);
    CHECK(j["library_only"] == true);
  }

  TEST_CASE("what was not evaluated has no timings or backend; what was not timed has nulls") {
    Attempt none;
    none.key = {"gpt", "refine", "level1/19", 0, 1};
    none.status = agent::AttemptStatus::no_code;
    json j = agent::to_json(none);
    CHECK_FALSE(j.contains("speedup"));
    CHECK_FALSE(j.contains("backend"));
    CHECK_FALSE(j.contains("unstable"));
    Attempt untimed = none;
    untimed.status = agent::AttemptStatus::mismatch;
    untimed.evaluated = true;
    untimed.backend = "cpu";
    j = agent::to_json(untimed);
    CHECK(j["speedup"].is_null());
    auto back = agent::attempt_from_json(j);
    REQUIRE(back.ok());
    CHECK(back->evaluated);
    CHECK_FALSE(back->speedup.has_value());
    CHECK(back->correct_speedup() == 0);
  }

  TEST_CASE("a field of the wrong type is an error naming it; a missing one takes its default") {
    json j = agent::to_json(evaluated());
    for (const auto& [field, bad] : std::vector<std::pair<std::string, json>>{
             {"turn", "3"}, {"speedup", "fast"}, {"unstable", 1}, {"usage", json::array()}, {"status", 7}}) {
      json broken = j;
      broken[field] = bad;
      auto r = agent::attempt_from_json(broken);
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().message.find(field) != std::string::npos);
    }
    json old = {{"key", "m/s/p/s0/t1"}, {"model", "m"}, {"strategy", "s"}, {"problem", "p"}, {"status", "timeout"}};
    auto r = agent::attempt_from_json(old);
    REQUIRE(r.ok());
    CHECK(r->key.turn == 1);
    CHECK(r->cost_usd == 0);
    CHECK_FALSE(agent::attempt_from_json(json{{"status", "correct"}}).ok());
    CHECK_FALSE(agent::attempt_from_json(json::array()).ok());
  }

  TEST_CASE("the records a run of refinery 0.1 wrote are read and written back byte for byte") {
    std::ifstream in(std::string(REFINERY_TEST_FIXTURES) + "/runs/quickstart-0.1/attempts.jsonl");
    REQUIRE(in);
    std::string line;
    std::set<std::string> statuses;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      json j = json::parse(line);
      auto a = agent::attempt_from_json(j);
      REQUIRE_MESSAGE(a.ok(), "line ", n, ": ", (a.ok() ? "" : a.error().message));
      CHECK_MESSAGE(agent::to_json(*a).dump() == line, "line ", n);
      statuses.insert(to_string(a->status));
    }
    CHECK(n >= 10);
    CHECK(statuses.size() >= 3);  // the fixture holds several kinds of outcome
  }

  TEST_CASE("a parent is written only when set, read back when present, and leaves the key's string as it is") {
    Attempt a = evaluated();
    CHECK_FALSE(agent::to_json(a).contains("parent"));
    a.key.parent = agent::AttemptKey::Parent{1, 2};
    json j = agent::to_json(a);
    CHECK(j["parent"] == json{{"sample", 1}, {"turn", 2}});
    CHECK(j["key"] == "gpt/refine/level1/19/s2/t3");
    auto back = agent::attempt_from_json(json::parse(j.dump()));
    REQUIRE(back.ok());
    CHECK(back->key.parent == agent::AttemptKey::Parent{1, 2});
    CHECK(agent::to_json(*back) == j);
    j["parent"] = "s1/t2";
    auto broken = agent::attempt_from_json(j);
    REQUIRE_FALSE(broken.ok());
    CHECK(broken.error().message == "attempt record: parent is not an object");
  }

  TEST_CASE("every status has one name, read back as itself; an unknown name is an error") {
    for (int i = 0; i <= static_cast<int>(agent::AttemptStatus::truncated); ++i) {
      const auto status = static_cast<agent::AttemptStatus>(i);
      CHECK(agent::parse_attempt_status(agent::to_string(status)).value() == status);
    }
    for (int i = 0; i <= static_cast<int>(eval::Status::correct); ++i) {
      const auto status = static_cast<eval::Status>(i);
      CHECK(agent::to_string(agent::attempt_status(status)) == eval::to_string(status));
    }
    CHECK(agent::to_string(agent::AttemptStatus::no_code) == "no_code");
    CHECK(agent::to_string(agent::AttemptStatus::truncated) == "truncated");
    auto unknown = agent::attempt_from_json({{"model", "m"}, {"strategy", "s"}, {"problem", "p"}, {"status", "fine"}});
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().message == "attempt record: status 'fine' is unknown");
  }

  TEST_CASE("an evaluation's outcome gives the attempt its verdict, as refinery eval --json states it") {
    eval::Outcome o;
    o.status = eval::Status::correct;
    o.message = "correct";
    o.mode = "refinery";
    o.timing = eval::Timing{};
    o.timing->speedup = 2.5;
    o.timing->candidate.median_ms = 0.4;
    o.timing->reference.median_ms = 1.0;
    o.timing->unstable = true;
    o.quarantine = "above 10x";
    o.device = 1;
    o.devices_retired = {{3, "gone", "level1/19"}};
    Attempt a;
    a.take(o);
    CHECK(a.evaluated);
    CHECK(a.status == agent::AttemptStatus::correct);
    CHECK(a.speedup == 2.5);
    CHECK(a.candidate_ms == 0.4);
    CHECK(a.reference_ms == 1.0);
    CHECK(a.unstable);
    CHECK(a.quarantine == "above 10x");
    CHECK(a.device == 1);
    REQUIRE(a.devices_retired.size() == 1);
    CHECK(a.devices_retired[0].reason == "gone");
    const json summary = eval::summary_json(o);
    for (const char* k : {"status", "message", "speedup", "candidate_ms", "reference_ms", "unstable", "quarantine"})
      CHECK_MESSAGE(agent::to_json(a)[k] == summary[k], k);

    // A mismatch that was timed anyway keeps its medians, never a speedup or an unstable mark.
    o.status = eval::Status::mismatch;
    o.device = -1;
    o.devices_retired.clear();
    a.take(o);
    CHECK(a.status == agent::AttemptStatus::mismatch);
    CHECK_FALSE(a.speedup.has_value());
    CHECK(a.candidate_ms == 0.4);
    CHECK_FALSE(a.unstable);
    CHECK_FALSE(a.device.has_value());
    CHECK(a.devices_retired.empty());
  }
}

TEST_SUITE("agent::Response") {
  TEST_CASE("every field written is read back; a field of the wrong type is an error naming it") {
    agent::Response r{"```cpp\n```", "thought", "length", "resp-1", 2, {10, 5, 20, 7, ""}, 0.125};
    const json j = agent::to_json(agent::AttemptKey{"gpt", "refine", "level1/19", 0, 2}, r);
    CHECK(j["key"] == "gpt/refine/level1/19/s0/t2");
    auto back = agent::response_from_json(json::parse(j.dump()));
    REQUIRE(back.ok());
    CHECK(agent::to_json(agent::AttemptKey{"gpt", "refine", "level1/19", 0, 2}, *back) == j);
    CHECK(back->truncated());
    json broken = j;
    broken["requests"] = "two";
    auto bad = agent::response_from_json(broken);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message == "response record: requests is not an integer");
  }

  TEST_CASE("the responses a run of refinery 0.1 recorded are read and written back byte for byte") {
    std::ifstream in(std::string(REFINERY_TEST_FIXTURES) + "/runs/quickstart-0.1/responses.jsonl");
    REQUIRE(in);
    int n = 0;
    for (std::string line; std::getline(in, line);) {
      ++n;
      const json j = json::parse(line);
      auto r = agent::response_from_json(j);
      REQUIRE_MESSAGE(r.ok(), "line ", n);
      agent::AttemptKey key{"m", "s", "p"};
      json written = agent::to_json(key, *r);
      written["key"] = j["key"];
      CHECK_MESSAGE(written.dump() == line, "line ", n);
    }
    CHECK(n >= 10);
  }
}
