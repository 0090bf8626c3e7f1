// The attempt record (agent/campaign/attempt.h): one writer, one reader, and
// the records refinery 0.1 wrote read back unchanged.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <string>

#include "agent/campaign/attempt.h"

using agent::Attempt;
using nlohmann::json;

namespace {

Attempt evaluated() {
  Attempt a;
  a.key = {"gpt", "refine", "level1/19", 2, 3};
  a.status = "correct";
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
    none.status = "no_code";
    json j = agent::to_json(none);
    CHECK_FALSE(j.contains("speedup"));
    CHECK_FALSE(j.contains("backend"));
    CHECK_FALSE(j.contains("unstable"));
    Attempt untimed = none;
    untimed.status = "mismatch";
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
      statuses.insert(a->status);
    }
    CHECK(n >= 10);
    CHECK(statuses.size() >= 3);  // the fixture holds several kinds of outcome
  }
}
