#include <doctest/doctest.h>

#include <filesystem>

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
    CHECK(c->problems.size == eval::Size::small);
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
    CHECK(c->strategies[0].kind == agent::StrategyKind::refine);
    CHECK(c->strategies[0].history == agent::History::last);
    CHECK(c->eval.asked.backend == eval::Backend::cpu);
    CHECK(*c->eval.atol == 0.001);
    CHECK_FALSE(c->eval.rtol.has_value());
    CHECK(c->eval.launch.timeout == 300);
    CHECK(c->eval.asked.profiler == eval::Profiler::automatic);
    CHECK(c->eval.asked.metrics.empty());
    CHECK(c->eval.compile.lean_headers);
    CHECK(c->thresholds == std::vector<double>{1, 2});
    auto full =
        agent::parse_config(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  lean_headers: false\n"), "exp.yaml");
    REQUIRE(full.ok());
    CHECK_FALSE(full->eval.compile.lean_headers);
    CHECK(c->leave_out.empty());
    auto left = agent::parse_config(
        with(kConfig, "  thresholds: [1, 2]\n", "  thresholds: [1, 2]\n  leave_out: [set:degenerate, level1/1-3]\n"),
        "exp.yaml");
    REQUIRE_MESSAGE(left.ok(), (left.ok() ? "" : left.error().message));
    CHECK(left->leave_out == std::vector<std::string>{"set:degenerate", "level1/1-3"});
  }

  TEST_CASE("the profiler and its metrics") {
    auto c = agent::parse_config(
        with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  profiler: ncu\n  metrics: [dram__bytes.sum.per_second]\n"),
        "exp.yaml");
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    CHECK(c->eval.asked.profiler == eval::Profiler::ncu);
    CHECK(c->eval.asked.metrics == std::vector<std::string>{"dram__bytes.sum.per_second"});
    CHECK(error_of(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  profiler: nsys\n")) ==
          "exp.yaml:29:13: invalid value 'nsys' for 'profiler' (expected one of: auto, cupti, ncu, none)\n"
          "      profiler: nsys\n"
          "                ^");
  }

  TEST_CASE("the devices (GPUs listed or all) and the cpu workers") {
    auto c = agent::parse_config(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  devices: [0, 2]\n  workers: 4\n"),
                                 "exp.yaml");
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    CHECK(c->eval.launch.devices == std::vector<int>{0, 2});
    CHECK(c->eval.launch.workers == 4);
    auto all = agent::parse_config(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  devices: all\n"), "exp.yaml");
    REQUIRE(all.ok());
    CHECK(all->eval.launch.devices.empty());
    CHECK(all->eval.launch.workers == 1);
    CHECK(error_of(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  devices: [1, 1]\n"))
              .find("exp.yaml:29:16: GPU 1 is listed twice in 'devices'") == 0);
    CHECK(error_of(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  devices: some\n"))
              .find("'devices' is 'all' or a list of GPU numbers") != std::string::npos);
    CHECK(error_of(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  devices: []\n")).find("'devices' is empty") !=
          std::string::npos);
    CHECK(error_of(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  workers: 0\n")).find("workers") !=
          std::string::npos);
  }

  TEST_CASE("the compile cache's size, written as a size") {
    auto c =
        agent::parse_config(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  cache_max_size: 500MB\n"), "exp.yaml");
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    CHECK(c->eval.compile.cache_max_bytes == 500000000u);
    auto fallback = agent::parse_config(kConfig, "exp.yaml");
    REQUIRE(fallback.ok());
    CHECK(fallback->eval.compile.cache_max_bytes == uint64_t{5} << 30);
    auto none =
        agent::parse_config(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  cache_max_size: 0\n"), "exp.yaml");
    REQUIRE(none.ok());
    CHECK(none->eval.compile.cache_max_bytes == 0u);
    CHECK(error_of(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  cache_max_size: 5 gallons\n")) ==
          "exp.yaml:29:19: 'cache_max_size' must be a size such as 5GiB or 500MB, or 0 for no limit, not '5 gallons'\n"
          "      cache_max_size: 5 gallons\n"
          "                      ^");
  }

  TEST_CASE("the compilers' memory cap, in GiB") {
    auto c =
        agent::parse_config(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  compile_memory_gib: 4.5\n"), "exp.yaml");
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    CHECK(c->eval.compile.memory_gib == 4.5);
    auto plain = agent::parse_config(kConfig, "exp.yaml");
    REQUIRE(plain.ok());
    CHECK(plain->eval.compile.memory_gib == 6);
    CHECK(error_of(with(kConfig, "  atol: 0.001\n", "  atol: 0.001\n  compile_memory_gib: 0.5\n"))
              .find("compile_memory_gib") != std::string::npos);
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

  TEST_CASE("an unknown provider or strategy kind far from every name is an error naming the allowed ones") {
    CHECK(error_of(with(kConfig, "provider: openai\n", "provider: gemini\n")) ==
          "exp.yaml:9:15: invalid value 'gemini' for 'provider' (expected one of: openai, openai-responses, "
          "openai_compatible, anthropic, replay)\n"
          "        provider: gemini\n"
          "                  ^");
    CHECK(error_of(with(kConfig, "kind: refine", "kind: tree_search")) ==
          "exp.yaml:21:11: invalid value 'tree_search' for 'kind' (expected one of: single_shot, refine, "
          "best_of_k_refine, beam, evolve)\n"
          "        kind: tree_search\n"
          "              ^");
    CHECK(error_of(with(kConfig, "history: last", "history: some"))
              .find("invalid value 'some' for 'history' (expected one of: full, last)") != std::string::npos);
  }

  TEST_CASE("a strategy's prompt: refinery's by default, KernelBench's with the kernels it asks for") {
    auto plain = agent::parse_config(kConfig, "exp.yaml");
    REQUIRE(plain.ok());
    CHECK(plain->strategies[0].prompt == agent::PromptStyle::refinery);
    CHECK(plain->strategies[0].candidate_language(eval::Backend::cuda) == eval::LanguageId::cuda_cxx);
    auto kb = agent::parse_config(
        with(kConfig, "    history: last\n", "    prompt: kernelbench\n    kernels: triton\n"), "exp.yaml");
    REQUIRE_MESSAGE(kb.ok(), (kb.ok() ? "" : kb.error().message));
    CHECK(kb->strategies[0].prompt == agent::PromptStyle::kernelbench);
    CHECK(kb->strategies[0].kernels == agent::KernelLanguage::triton);
    CHECK(kb->strategies[0].candidate_language(eval::Backend::cpu) == eval::LanguageId::python);
    CHECK(error_of(with(kConfig, "    history: last\n", "    kernels: cuda\n"))
              .find("'kernels' chooses what a kernelbench prompt asks for; add prompt: kernelbench") !=
          std::string::npos);
    CHECK(error_of(with(kConfig, "    history: last\n", "    prompt: kernelbench\n    kernels: tilelang\n"))
              .find("invalid value 'tilelang' for 'kernels' (expected one of: cuda, triton, cpp)") !=
          std::string::npos);
  }

  TEST_CASE("the paper's prompt ablations: shots (kernelbench only: 0, 1 or 3), hardware, runtime feedback") {
    auto plain = agent::parse_config(kConfig, "exp.yaml");
    REQUIRE(plain.ok());
    CHECK(plain->strategies[0].shots == 1);
    CHECK(plain->strategies[0].hardware);
    auto few = agent::parse_config(
        with(with(kConfig, "    history: last\n", "    prompt: kernelbench\n    shots: 3\n    hardware: false\n"),
             "    feedback: [compile, correctness]\n", "    feedback: [compile, correctness, runtime]\n"),
        "exp.yaml");
    REQUIRE_MESSAGE(few.ok(), (few.ok() ? "" : few.error().message));
    CHECK(few->strategies[0].shots == 3);
    CHECK_FALSE(few->strategies[0].hardware);
    CHECK(few->strategies[0].feedback == std::vector<std::string>{"compile", "correctness", "runtime"});
    auto none =
        agent::parse_config(with(kConfig, "    feedback: [compile, correctness]\n", "    feedback: []\n"), "exp.yaml");
    REQUIRE_MESSAGE(none.ok(), (none.ok() ? "" : none.error().message));
    CHECK(none->strategies[0].feedback.empty());
    CHECK(error_of(with(kConfig, "    history: last\n", "    shots: 0\n")).find("add prompt: kernelbench") !=
          std::string::npos);
    CHECK(error_of(with(kConfig, "    history: last\n", "    prompt: kernelbench\n    shots: 2\n"))
              .find("'shots' is 0, 1 or 3") != std::string::npos);
    CHECK(error_of(with(kConfig, "    history: last\n", "    hardware: maybe\n")).find("hardware") !=
          std::string::npos);
  }

  TEST_CASE("a strategy's precision: eval.precision's values, unset by default (the campaign's)") {
    auto plain = agent::parse_config(kConfig, "exp.yaml");
    REQUIRE(plain.ok());
    CHECK_FALSE(plain->strategies[0].precision);
    auto half = agent::parse_config(with(kConfig, "    history: last\n", "    precision: bf16\n"), "exp.yaml");
    REQUIRE_MESSAGE(half.ok(), (half.ok() ? "" : half.error().message));
    CHECK(half->strategies[0].precision == eval::DType::bfloat16);
    CHECK(error_of(with(kConfig, "    history: last\n", "    precision: fp8\n")).find("fp32, fp16, bf16") !=
          std::string::npos);
  }

  TEST_CASE("openai_compatible needs its server's base_url and sends no key unless api_key_env names one") {
    CHECK(error_of(with(with(kConfig, "    provider: openai\n", "    provider: openai_compatible\n"),
                        "    base_url: http://127.0.0.1:8000/v1\n", ""))
              .find("missing required key 'base_url' in model 'fast' (provider openai_compatible)") !=
          std::string::npos);
    auto c =
        agent::parse_config(with(kConfig, "    provider: openai\n", "    provider: openai_compatible\n"), "exp.yaml");
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    CHECK(c->models[0].provider == agent::Provider::openai_compatible);
    CHECK(c->models[0].api_key_env.empty());
    CHECK(c->models[0].reasoning_effort == "high");
    CHECK(c->models[1].provider == agent::Provider::replay);
  }

  TEST_CASE("a single-shot strategy has one turn") {
    CHECK(error_of(with(kConfig, "kind: refine", "kind: single_shot")) ==
          "exp.yaml:22:12: a single_shot strategy has one turn; use refine for more\n"
          "        turns: 3\n"
          "               ^");
  }

  TEST_CASE("replay needs its source, and duplicate names are refused") {
    CHECK(error_of(with(kConfig, "    replay_from: runs/old\n", ""))
              .find("missing required key 'replay_from' in model 'recorded' (provider replay)") != std::string::npos);
    CHECK(error_of(with(kConfig, "name: recorded", "name: fast")).find("two models are named 'fast'") !=
          std::string::npos);
  }

  TEST_CASE("a selection of nothing is refused") {
    std::string text = with(with(kConfig, "  ids: [level1/19, softmax]\n", ""), "  levels: [2]\n", "");
    CHECK(error_of(text).find("'problems' selects nothing: give 'ids' or 'levels'") != std::string::npos);
  }

  TEST_CASE("every number is range-checked where it stands: no wrap, no infinity") {
    CHECK(error_of(with(kConfig, "    turns: 3", "    turns: 4294967296")) ==
          "exp.yaml:22:12: 'turns' must be between 1 and 100, got 4294967296\n"
          "        turns: 4294967296\n"
          "               ^");
    CHECK(error_of(with(kConfig, "    turns: 3", "    turns: 3\n    samples: 4294967295")) ==
          "exp.yaml:23:14: 'samples' must be between 1 and 1000, got 4294967295\n"
          "        samples: 4294967295\n"
          "                 ^");
    CHECK(error_of(with(kConfig, "    turns: 3", "    turns: 3\n    samples: 2000000000"))
              .find("'samples' must be between 1 and 1000, got 2000000000") != std::string::npos);
    CHECK(error_of(with(kConfig, "    turns: 3", "    turns: 99999999999999999999999"))
              .find("'turns' must be between 1 and 100, got 99999999999999999999999") != std::string::npos);
    CHECK(error_of(with(kConfig, "  trials: 3", "  trials: 3\n  timeout: 1e300"))
              .find("exp.yaml:28:12: 'timeout' must be between 1 and 86400, got 1e300") == 0);
    CHECK(error_of(with(kConfig, "  trials: 3", "  trials: 3\n  timeout: .inf"))
              .find("exp.yaml:28:12: expected a finite number for 'timeout', got '.inf'") == 0);
    CHECK(error_of(with(kConfig, "  atol: 0.001", "  atol: .nan")).find("expected a finite number for 'atol'") !=
          std::string::npos);
    CHECK(error_of(with(kConfig, "temperature: 0.2", "temperature: 7"))
              .find("'temperature' must be between 0 and 2, got 7") != std::string::npos);
    CHECK(error_of(with(kConfig, "concurrency: 8", "concurrency: -1"))
              .find("'concurrency' must be between 1 and 1024, got -1") != std::string::npos);
    CHECK(error_of(with(kConfig, "seed: 7", "seed: -7")).find("'seed' must be between 0 and 9223372036854775807") !=
          std::string::npos);
    // Nineteen digits that fit in 64 bits are a seed; twenty that do not are out of range.
    auto big = agent::parse_config(with(kConfig, "seed: 7", "seed: 9223372036854775807"), "exp.yaml");
    REQUIRE_MESSAGE(big.ok(), (big.ok() ? "" : big.error().message));
    CHECK(*big->seed == 9223372036854775807ull);
    CHECK(error_of(with(kConfig, "seed: 7", "seed: 18446744073709551616"))
              .find("'seed' must be between 0 and 9223372036854775807, got 18446744073709551616") != std::string::npos);
  }

  TEST_CASE("seed 0 is a seed like any other; no seed means random") {
    auto zero = agent::parse_config(with(kConfig, "seed: 7", "seed: 0"), "exp.yaml");
    REQUIRE(zero.ok());
    REQUIRE(zero->seed.has_value());
    CHECK(*zero->seed == 0);
    auto none = agent::parse_config(with(kConfig, "seed: 7\n", ""), "exp.yaml");
    REQUIRE(none.ok());
    CHECK_FALSE(none->seed.has_value());
  }

  TEST_CASE("a key given twice is an error at its second place") {
    CHECK(error_of(with(kConfig, "  trials: 3", "  trials: 3\n  trials: 9")) ==
          "exp.yaml:28:3: duplicate key 'trials' (first given on line 27)\n"
          "      trials: 9\n"
          "      ^");
    CHECK(error_of(with(kConfig, "seed: 7", "seed: 7\nseed: 8")).find("duplicate key 'seed'") != std::string::npos);
  }

  TEST_CASE("a key the provider would ignore is an error") {
    CHECK(error_of(with(kConfig, "    provider: openai\n", "    provider: anthropic\n")) ==
          "exp.yaml:13:5: 'reasoning_effort' does not apply to provider anthropic (model 'fast')\n"
          "        reasoning_effort: high\n"
          "        ^");
    CHECK(error_of(with(kConfig, "    reasoning_effort: high", "    thinking_budget: 2048"))
              .find("'thinking_budget' does not apply to provider openai (model 'fast')") != std::string::npos);
    CHECK(error_of(with(kConfig, "    replay_from: runs/old", "    replay_from: runs/old\n    temperature: 1"))
              .find("'temperature' does not apply to provider replay (model 'recorded')") != std::string::npos);
    auto anthropic = agent::parse_config(with(with(kConfig, "    provider: openai\n", "    provider: anthropic\n"),
                                              "    reasoning_effort: high", "    thinking_budget: 2048"),
                                         "exp.yaml");
    REQUIRE_MESSAGE(anthropic.ok(), (anthropic.ok() ? "" : anthropic.error().message));
    CHECK(anthropic->models[0].thinking_budget == 2048);
  }

  TEST_CASE("names become folders only when they are safe path components") {
    CHECK(error_of(with(kConfig, "name: compare", "name: ../../../../tmp/x")) ==
          "exp.yaml:1:7: '../../../../tmp/x' cannot name a campaign: it starts with '.' (use letters, digits, '.', "
          "'_', '-' and '+')\n"
          "    name: ../../../../tmp/x\n"
          "          ^");
    CHECK(error_of(with(kConfig, "name: fast", "name: ../../../../tmp/y"))
              .find("'../../../../tmp/y' cannot name a model: it starts with '.'") != std::string::npos);
    CHECK(error_of(with(kConfig, "name: refine3", "name: a/b")).find("'a/b' cannot name a strategy: it holds '/'") !=
          std::string::npos);
    auto stem = agent::parse_config(with(kConfig, "name: compare\n", ""), "configs/my run.yaml");
    REQUIRE_FALSE(stem.ok());
    CHECK(stem.error().message ==
          "configs/my run.yaml: the file's stem 'my run' cannot name the campaign (it holds ' '): give the config a "
          "'name'");
  }

  TEST_CASE("every config the project ships parses: the quickstart and configs/paper, with the paper's settings") {
    size_t paper = 0;
    for (const auto& e :
         std::filesystem::recursive_directory_iterator(std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/configs")) {
      if (e.path().extension() != ".yaml") continue;
      auto c = agent::load_config(e.path().string());
      REQUIRE_MESSAGE(c.ok(), e.path().string(), ": ", (c.ok() ? "" : c.error().message));
      if (e.path().parent_path().filename() != "paper") continue;
      ++paper;
      CHECK(c->problems.levels == std::vector<int>{1, 2, 3});
      CHECK(c->eval.mode == eval::Mode::kernelbench);
      for (const auto& s : c->strategies) CHECK(s.prompt == agent::PromptStyle::kernelbench);
      if (e.path().stem() == "iterative_refinement") {
        REQUIRE(c->strategies.size() == 3);
        CHECK(c->strategies[0].feedback.empty());
        CHECK(c->strategies[1].feedback == std::vector<std::string>{"compile", "correctness", "runtime"});
        CHECK(c->strategies[2].feedback.back() == "profile");
        for (const auto& s : c->strategies) CHECK(s.turns == 10);
      }
      if (e.path().stem() == "repeated_sampling_k100") CHECK(c->strategies[0].samples == 100);
    }
    CHECK(paper == 5);
  }
}
