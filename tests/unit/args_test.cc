#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "agent/cli/args.h"
#include "agent/cli/context.h"

namespace {

using Strings = std::vector<std::string>;

const std::vector<agent::FlagSpec> kFlags = {
    {"size", true, "which size preset"},
    {"timeout", true, "seconds"},
    {"threads", true, "threads"},
    {"json", false, "print JSON"},
    {"keep-job-dirs", false, "leave folders behind"},
};

agent::Args parsed(const Strings& argv) {
  auto r = agent::parse_args(argv, kFlags);
  REQUIRE_MESSAGE(r.ok(), r.error().message);
  return std::move(r).value();
}

std::string error_of(const Strings& argv) {
  auto r = agent::parse_args(argv, kFlags);
  REQUIRE_FALSE(r.ok());
  return r.error().message;
}

}  // namespace

TEST_SUITE("agent::parse_args") {
  TEST_CASE("collects positionals in order") {
    auto a = parsed({"eval", "softmax", "cand.cu"});
    CHECK(a.positional == Strings{"eval", "softmax", "cand.cu"});
    CHECK(a.values.empty());
  }

  TEST_CASE("takes a flag's value from the next argument") {
    auto a = parsed({"softmax", "--size", "small", "cand.cu"});
    CHECK(a.positional == Strings{"softmax", "cand.cu"});
    CHECK(a.get("size") == "small");
  }

  TEST_CASE("takes a flag's value after '='") {
    auto a = parsed({"--size=full", "--timeout=2.5", "x"});
    CHECK(a.get("size") == "full");
    CHECK(a.get("timeout") == "2.5");
    CHECK(a.positional == Strings{"x"});
  }

  TEST_CASE("keeps '=' inside an inline value and allows it empty") {
    CHECK(parsed({"--size=a=b"}).get("size") == "a=b");
    auto a = parsed({"--size="});
    CHECK(a.has("size"));
    CHECK(a.get("size", "fallback") == "");
  }

  TEST_CASE("a boolean flag maps to true and takes no argument") {
    auto a = parsed({"--json", "softmax", "--keep-job-dirs"});
    CHECK(a.get("json") == "true");
    CHECK(a.has("keep-job-dirs"));
    CHECK(a.positional == Strings{"softmax"});
  }

  TEST_CASE("a boolean flag given a value is an error") {
    CHECK(error_of({"--json=yes"}) == "--json takes no value");
  }

  TEST_CASE("the last of a repeated flag wins") {
    CHECK(parsed({"--size", "small", "--size", "full"}).get("size") == "full");
  }

  TEST_CASE("get falls back when the flag is absent") {
    auto a = parsed({});
    CHECK_FALSE(a.has("size"));
    CHECK(a.get("size") == "");
    CHECK(a.get("size", "small") == "small");
  }

  TEST_CASE("a single dash and a bare '--' are positionals") {
    auto a = parsed({"-", "--", "-v"});
    CHECK(a.positional == Strings{"-", "--", "-v"});
  }

  TEST_CASE("an unknown flag suggests the closest known one") {
    CHECK(error_of({"--sise", "small"}) == "unknown flag --sise (did you mean --size?)");
    CHECK(error_of({"--timout=3"}) == "unknown flag --timout (did you mean --timeout?)");
    CHECK(error_of({"--keep-job-dir"}) == "unknown flag --keep-job-dir (did you mean --keep-job-dirs?)");
  }

  TEST_CASE("an unknown flag with no close match suggests nothing") {
    CHECK(error_of({"--verbose"}) == "unknown flag --verbose");
  }

  TEST_CASE("a flag missing its value is an error") {
    CHECK(error_of({"softmax", "--size"}) == "--size needs a value");
  }
}

TEST_SUITE("agent::Args::number") {
  TEST_CASE("parses a number") {
    auto a = parsed({"--timeout", "2.5"});
    auto n = a.number("timeout", 300, 1, 86400);
    REQUIRE(n.ok());
    CHECK(*n == 2.5);
  }

  TEST_CASE("falls back when the flag is absent") {
    auto n = parsed({}).number("timeout", 300, 1, 86400);
    REQUIRE(n.ok());
    CHECK(*n == 300);
  }

  TEST_CASE("rejects text that is not a number, infinity and numbers out of range, as usage errors") {
    for (const char* bad : {"abc", "5s", "", "inf", "nan", "1e300", "0.5", "-3"}) {
      auto r = parsed({std::string("--timeout=") + bad}).number("timeout", 300, 1, 86400);
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().message == std::string("--timeout must be a number between 1 and 86400, got '") + bad + "'");
      CHECK(r.error().kind == base::ErrorKind::usage);
    }
  }

  TEST_CASE("integers: no fractions, no wrap") {
    CHECK(*parsed({"--threads", "4"}).integer("threads", 0, 1, 1024) == 4);
    for (const char* bad : {"abc", "2.5", "4294967297", "99999999999999999999", "0", ""}) {
      auto r = parsed({std::string("--threads=") + bad}).integer("threads", 0, 1, 1024);
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().message == std::string("--threads must be an integer between 1 and 1024, got '") + bad + "'");
    }
  }
}

TEST_SUITE("agent::flags_help") {
  TEST_CASE("lines up the help text after the flags") {
    std::vector<agent::FlagSpec> flags = {{"size", true, "which size preset"}, {"json", false, "print JSON"}};
    CHECK(agent::flags_help(flags) ==
          "  --size VALUE             which size preset\n"
          "  --json                   print JSON\n");
  }
}

TEST_SUITE("agent::eval_settings_from_args") {
  TEST_CASE("--cache-max-size takes a size, and 5 GiB is the default") {
    auto parse = [](const Strings& argv) {
      auto args = agent::parse_args(argv, agent::eval_flags());
      REQUIRE(args.ok());
      return agent::eval_settings_from_args(*args);
    };
    auto fallback = parse({});
    REQUIRE(fallback.ok());
    CHECK(fallback->compile.cache_max_bytes == uint64_t{5} << 30);
    auto set = parse({"--cache-max-size", "500MiB"});
    REQUIRE(set.ok());
    CHECK(set->compile.cache_max_bytes == uint64_t{500} << 20);
    auto bad = parse({"--cache-max-size", "lots"});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message ==
          "--cache-max-size must be a size such as 5GiB or 500MB, or 0 for no limit, not 'lots'");
  }
}
