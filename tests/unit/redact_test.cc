#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "base/redact.h"

using Strings = std::vector<std::string>;

TEST_SUITE("base::Redactor") {
  TEST_CASE("replaces every occurrence of a secret") {
    base::Redactor r({"sk-live-123456"});
    CHECK(r.redact("key sk-live-123456 and again sk-live-123456.") == "key [REDACTED] and again [REDACTED].");
    CHECK(r.redact("nothing to hide") == "nothing to hide");
    CHECK(r.redact("") == "");
  }

  TEST_CASE("a secret at the start and at the end of the text") {
    base::Redactor r({"tok_abcdefgh"});
    CHECK(r.redact("tok_abcdefgh middle tok_abcdefgh") == "[REDACTED] middle [REDACTED]");
    CHECK(r.redact("tok_abcdefgh") == "[REDACTED]");
  }

  TEST_CASE("overlapping or touching occurrences become one marker") {
    base::Redactor r({"abcdefgh12", "defgh12345"});
    // Neither secret's tail is left behind, whichever is found first.
    CHECK(r.redact("x abcdefgh12345 y") == "x [REDACTED] y");
    CHECK(r.redact("abcdefgh12abcdefgh12") == "[REDACTED]");
    base::Redactor repeats({"aaaaaaaa"});
    CHECK(repeats.redact("baaaaaaaaaaab") == "b[REDACTED]b");
  }

  TEST_CASE("a secret inside another is covered by the longer one") {
    base::Redactor r({"12345678", "key=12345678-tail"});
    CHECK(r.redact("key=12345678-tail, 12345678") == "[REDACTED], [REDACTED]");
  }

  TEST_CASE("secrets of four to seven characters are redacted wherever they occur, inside words too") {
    base::Redactor r({"hunter2", "abcd"});
    CHECK(r.redact("pw=hunter2; xabcdx, abcd.") == "pw=[REDACTED]; x[REDACTED]x, [REDACTED].");
  }

  TEST_CASE("secrets of one to three characters, and duplicates, are ignored") {
    base::Redactor r({"ab", "123", "", "abcd", "abcd"});
    CHECK(r.secrets() == Strings{"abcd"});
    CHECK(r.redact("table 123 abcd") == "table 123 [REDACTED]");
  }

  TEST_CASE("many occurrences of many secrets in 64 KiB") {
    Strings secrets;
    for (int i = 0; i < 20; ++i) secrets.push_back("secret-value-" + std::to_string(100 + i));
    base::Redactor r(secrets);
    std::string text, expected;
    while (text.size() < (64 << 10)) {
      const std::string& s = secrets[text.size() % 20];
      text += "line " + s + "\n";
      expected += "line [REDACTED]\n";
    }
    auto start = std::chrono::steady_clock::now();
    std::string out = r.redact(text);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    CHECK(out == expected);
    CHECK(ms < 200);  // a few ms in practice; a quadratic scan would take seconds
  }
}

TEST_SUITE("base::secrets_from_environment") {
  TEST_CASE("takes the values of variables whose names look secret") {
    Strings env = {"PATH=/usr/bin",
                   "OPENAI_API_KEY=sk-1",
                   "GITHUB_TOKEN=ghp_x",
                   "db_password=hunter2",
                   "AWS_SECRET_ACCESS_KEY=s3",
                   "HOME=/home/me",
                   "MY_PASSWD=pw",
                   "GOOGLE_CREDENTIALS=c",
                   "HTTP_AUTHORIZATION=Bearer b",
                   "session_cookie=ck",
                   "TERM=xterm"};
    CHECK(base::secrets_from_environment(env, {}) ==
          Strings{"sk-1", "ghp_x", "hunter2", "s3", "pw", "c", "Bearer b", "ck"});
  }

  TEST_CASE("a value that reads as a setting is no secret, unless a config names its variable") {
    Strings env = {"TOKENIZERS_PARALLELISM=false",
                   "HF_HUB_DISABLE_TOKEN=1",
                   "AUTH_MODE=On",
                   "MAX_KEYS=100",
                   "PIN_PASSWORD=1234",
                   "MY_LLM=off"};
    CHECK(base::secrets_from_environment(env, {"MY_LLM"}) == Strings{"1234", "off"});
    CHECK(base::looks_like_setting("Disabled"));
    CHECK(base::looks_like_setting("0"));
    CHECK_FALSE(base::looks_like_setting("1234"));
    CHECK_FALSE(base::looks_like_setting("sk"));
    CHECK_FALSE(base::looks_like_setting(""));
  }

  TEST_CASE("names the variables whose secrets are too short to redact") {
    Strings env = {"DB_PASSWORD=pw",  "OPENAI_API_KEY=sk-long-enough",
                   "RETRY_TOKENS=42", "GH_TOKEN=ab1",
                   "LLM=xy",          "PATH=/bin",
                   "SHORT_AUTH=off",  "FOUR_KEY=abcd"};
    CHECK(base::unredactable_secret_names(env, {"LLM"}) == Strings{"DB_PASSWORD", "GH_TOKEN", "LLM"});
  }

  TEST_CASE("adds the variables a config names, and keeps each value once") {
    Strings env = {"MY_LLM=llm-value", "OTHER=plain",   "API_KEY=llm-value",
                   "EMPTY_KEY=",       "NO_EQUALS_KEY", "SERVICE=svc-value"};
    CHECK(base::secrets_from_environment(env, {"MY_LLM", "SERVICE", "UNSET"}) == Strings{"llm-value", "svc-value"});
  }

  TEST_CASE("a value may contain '='") {
    CHECK(base::secrets_from_environment({"SOME_TOKEN=a=b=c"}, {}) == Strings{"a=b=c"});
  }
}
