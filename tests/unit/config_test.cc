#include <doctest/doctest.h>

#include "agent/config.h"

namespace {

const char* kConfig = R"(name: compare
seed: 7
problems:
  ids: [level1/19, softmax]
  levels: [2]
  size: small
models:
  - name: fast
    provider: openai
    model: gpt-test
    base_url: http://127.0.0.1:8000/v1
    temperature: 0.2
    reasoning_effort: high
    price: {input: 1.25, cached_input: 0.125, output: 10}
    concurrency: 8
  - name: recorded
    provider: replay
    replay_from: runs/old
strategies:
  - name: refine3
    kind: refine
    turns: 3
    feedback: [compile, correctness]
    history: last
eval:
  backend: cpu
  trials: 3
  atol: 0.001
report:
  thresholds: [1, 2]
)";

std::string error_of(const std::string& text) {
  auto c = agent::parse_config(text, "exp.yaml");
  REQUIRE_FALSE(c.ok());
  return c.error().message;
}

std::string with(std::string text, const std::string& from, const std::string& to) {
  auto pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  return text.replace(pos, from.size(), to);
}

}  // namespace

TEST_SUITE("agent::Config") {
  TEST_CASE("decodes every section into typed fields, with defaults where left out") {
    auto c = agent::parse_config(kConfig, "exp.yaml");
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    CHECK(c->name == "compare");
    CHECK(c->seed == 7);
    CHECK(c->problems.ids == std::vector<std::string>{"level1/19", "softmax"});
    CHECK(c->problems.levels == std::vector<int>{2});
    CHECK(c->problems.size == "small");
    REQUIRE(c->models.size() == 2);
    CHECK(c->models[0].api_key_env == "OPENAI_API_KEY");
    CHECK(*c->models[0].temperature == 0.2);
    CHECK_FALSE(c->models[0].top_p.has_value());
    CHECK(c->models[0].price.cached_input == 0.125);
    CHECK(c->models[0].concurrency == 8);
    CHECK(c->models[0].max_output_tokens == 16384);
    CHECK(c->models[1].api_key_env.empty());
    CHECK(c->models[1].replay_from == "runs/old");
    REQUIRE(c->strategies.size() == 1);
    CHECK(c->strategies[0].turns == 3);
    CHECK(c->strategies[0].samples == 1);
    CHECK(c->strategies[0].feedback == std::vector<std::string>{"compile", "correctness"});
    CHECK(c->strategies[0].history == "last");
    CHECK(c->eval.backend == "cpu");
    CHECK(*c->eval.atol == 0.001);
    CHECK_FALSE(c->eval.rtol.has_value());
    CHECK(c->eval.timeout == 300);
    CHECK(c->eval.profiler == "auto");
    CHECK(c->eval.metrics.empty());
    CHECK(c->thresholds == std::vector<double>{1, 2});
  }

  TEST_CASE("the profiler and its metrics") {
    auto c = agent::parse_config(with(kConfig, "  atol: 0.001\n",
                                      "  atol: 0.001\n  profiler: ncu\n  metrics: [dram__bytes.sum.per_second]\n"),
                                 "exp.yaml");
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    CHECK(c->eval.profiler == "ncu");
    CHECK(c->eval.metrics == std::vector<std::string>{"dram__bytes.sum.per_second"});
    CHECK(error_of(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  profiler: nsys\n")) ==
          "exp.yaml:29:13: invalid value 'nsys' for 'profiler' (expected one of: auto, cupti, ncu, none)\n"
          "      profiler: nsys\n"
          "                ^");
  }

  TEST_CASE("a misspelt key is an error with its place and the closest key") {
    CHECK(error_of(with(kConfig, "    temperature: 0.2", "    temprature: 0.2")) ==
          "exp.yaml:12:5: unknown key 'temprature' in model 'fast' (did you mean 'temperature'?)\n"
          "        temprature: 0.2\n"
          "        ^");
  }

  TEST_CASE("a wrong type names what was expected") {
    CHECK(error_of(with(kConfig, "  trials: 3", "  trials: three")) ==
          "exp.yaml:27:11: expected an integer for 'trials', got 'three'\n"
          "      trials: three\n"
          "              ^");
  }

  TEST_CASE("a missing required field points at its section") {
    CHECK(error_of(with(kConfig, "    model: gpt-test\n", "")) ==
          "exp.yaml:8:5: missing required key 'model' in model 'fast'\n"
          "      - name: fast\n"
          "        ^");
  }

  TEST_CASE("an unknown provider is suggested") {
    CHECK(error_of(with(kConfig, "provider: openai\n", "provider: openia\n")) ==
          "exp.yaml:9:15: invalid value 'openia' for 'provider' (did you mean 'openai'?)\n"
          "        provider: openia\n"
          "                  ^");
  }

  TEST_CASE("a single-shot strategy has one turn") {
    CHECK(error_of(with(kConfig, "kind: refine", "kind: single_shot")) ==
          "exp.yaml:22:12: a single_shot strategy has one turn; use refine for more\n"
          "        turns: 3\n"
          "               ^");
  }

  TEST_CASE("replay needs its source, and duplicate names are refused") {
    CHECK(error_of(with(kConfig, "    replay_from: runs/old\n", "")).find(
              "missing required key 'replay_from' in model 'recorded' (provider replay)") != std::string::npos);
    CHECK(error_of(with(kConfig, "name: recorded", "name: fast")).find("two models are named 'fast'") !=
          std::string::npos);
  }

  TEST_CASE("a selection of nothing is refused") {
    std::string text = with(with(kConfig, "  ids: [level1/19, softmax]\n", ""), "  levels: [2]\n", "");
    CHECK(error_of(text).find("'problems' selects nothing: give 'ids' or 'levels'") != std::string::npos);
  }
}
