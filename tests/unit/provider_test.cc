#include <doctest/doctest.h>

#include "agent/model/provider.h"

using agent::HttpResponse;
using nlohmann::json;

namespace {

agent::ModelConfig model(const std::string& provider) {
  agent::ModelConfig m;
  m.name = "m";
  m.provider = *agent::parse_provider(provider);
  m.model = "model-x";
  m.max_output_tokens = 1000;
  return m;
}

agent::ChatRequest request() {
  return {"be fast", {{"user", "write relu"}, {"assistant", "```cpp\n...\n```"}, {"user", "faster"}}};
}

HttpResponse ok(const json& body) {
  return {200, {}, body.dump(), ""};
}

std::string header(const agent::HttpRequest& r, const std::string& name) {
  for (const auto& [k, v] : r.headers)
    if (k == name) return v;
  return "<absent>";
}

}  // namespace

TEST_SUITE("agent::provider requests") {
  TEST_CASE("openai chat completions, field by field") {
    auto m = model("openai");
    m.temperature = 0.5;
    m.reasoning_effort = "high";
    auto r = *agent::build_request(m, request(), "sk-1");
    CHECK(r.url == "https://api.openai.com/v1/chat/completions");
    CHECK(header(r, "Authorization") == "Bearer sk-1");
    CHECK(header(r, "Content-Type") == "application/json");
    auto body = json::parse(r.body);
    CHECK(body == json{{"model", "model-x"},
                       {"messages",
                        {{{"role", "system"}, {"content", "be fast"}},
                         {{"role", "user"}, {"content", "write relu"}},
                         {{"role", "assistant"}, {"content", "```cpp\n...\n```"}},
                         {{"role", "user"}, {"content", "faster"}}}},
                       {"max_completion_tokens", 1000},
                       {"temperature", 0.5},
                       {"reasoning_effort", "high"}});
  }

  TEST_CASE("openai at a written base_url is still OpenAI's API: max_completion_tokens") {
    auto m = model("openai");
    m.base_url = "https://api.openai.com/v1";
    auto body = json::parse(agent::build_request(m, request(), "sk-1")->body);
    CHECK(body["max_completion_tokens"] == 1000);
    CHECK_FALSE(body.contains("max_tokens"));
  }

  TEST_CASE("a compatible server (openai_compatible) gets max_tokens at its base_url") {
    auto m = model("openai_compatible");
    m.base_url = "http://127.0.0.1:8000/v1/";
    auto r = *agent::build_request(m, request(), "");
    CHECK(r.url == "http://127.0.0.1:8000/v1/chat/completions");
    CHECK(header(r, "Authorization") == "<absent>");
    auto body = json::parse(r.body);
    CHECK(body["max_tokens"] == 1000);
    CHECK_FALSE(body.contains("max_completion_tokens"));
    CHECK_FALSE(body.contains("temperature"));
  }

  TEST_CASE("openai responses") {
    auto m = model("openai-responses");
    m.reasoning_effort = "medium";
    auto r = *agent::build_request(m, request(), "sk-2");
    CHECK(r.url == "https://api.openai.com/v1/responses");
    auto body = json::parse(r.body);
    CHECK(body["instructions"] == "be fast");
    CHECK(body["input"].size() == 3);
    CHECK(body["input"][1] == json{{"role", "assistant"}, {"content", "```cpp\n...\n```"}});
    CHECK(body["max_output_tokens"] == 1000);
    CHECK(body["reasoning"] == json{{"effort", "medium"}, {"summary", "auto"}});
  }

  TEST_CASE("anthropic messages with thinking") {
    auto m = model("anthropic");
    m.thinking_budget = 4000;
    auto r = *agent::build_request(m, request(), "sk-ant");
    CHECK(r.url == "https://api.anthropic.com/v1/messages");
    CHECK(header(r, "x-api-key") == "sk-ant");
    CHECK(header(r, "anthropic-version") == "2023-06-01");
    CHECK(header(r, "Authorization") == "<absent>");
    auto body = json::parse(r.body);
    CHECK(body["system"] == "be fast");
    CHECK(body["max_tokens"] == 1000);
    CHECK(body["messages"].size() == 3);
    CHECK(body["thinking"] == json{{"type", "enabled"}, {"budget_tokens", 4000}});
  }

  TEST_CASE("replay speaks no HTTP: building a request for it is an error, as is parsing a response") {
    auto m = model("replay");
    auto r = agent::build_request(m, request(), "");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "model 'm': provider replay makes no HTTP requests");
    auto p = agent::parse_response(m, ok({{"choices", json::array()}}));
    REQUIRE(p.error);
    CHECK_FALSE(p.error->retryable);
  }
}

TEST_SUITE("agent::provider table") {
  TEST_CASE("each row's API and wire details") {
    using agent::Api;
    using agent::Provider;
    auto row = [](Provider p) { return agent::provider_row(p); };
    CHECK(row(Provider::openai).api == Api::chat_completions);
    CHECK(std::string(row(Provider::openai).max_tokens_field) == "max_completion_tokens");
    CHECK(std::string(row(Provider::openai).base_url) == "https://api.openai.com/v1");
    CHECK(std::string(row(Provider::openai).api_key_env) == "OPENAI_API_KEY");
    CHECK(row(Provider::openai_responses).api == Api::responses);
    CHECK(std::string(row(Provider::openai_responses).max_tokens_field) == "max_output_tokens");
    CHECK(row(Provider::openai_compatible).api == Api::chat_completions);
    CHECK(std::string(row(Provider::openai_compatible).max_tokens_field) == "max_tokens");
    CHECK(std::string(row(Provider::openai_compatible).base_url).empty());
    CHECK(std::string(row(Provider::openai_compatible).api_key_env).empty());
    CHECK(row(Provider::anthropic).api == Api::anthropic_messages);
    CHECK(std::string(row(Provider::anthropic).reasoning_key) == "thinking_budget");
    CHECK(row(Provider::replay).api == Api::recorded);
    CHECK_FALSE(agent::over_http(Api::recorded));
  }

  TEST_CASE("every name parses to its row and back; an unknown name is an error naming them all") {
    for (const auto& row : agent::providers()) {
      auto p = agent::parse_provider(row.name);
      REQUIRE(p.ok());
      CHECK(*p == row.id);
      CHECK(agent::to_string(*p) == row.name);
    }
    auto bad = agent::parse_provider("gemini");
    REQUIRE_FALSE(bad.ok());
    CHECK(
        bad.error().message ==
        "unknown provider 'gemini' (expected one of: openai, openai-responses, openai_compatible, anthropic, replay)");
  }
}

TEST_SUITE("agent::provider responses") {
  TEST_CASE("openai chat: text, reasoning_content and usage with cached and reasoning tokens") {
    auto p = agent::parse_response(
        model("openai"), ok({{"id", "c1"},
                             {"choices",
                              {{{"finish_reason", "stop"},
                                {"message", {{"content", "```cpp\nx\n```"}, {"reasoning_content", "think"}}}}}},
                             {"usage",
                              {{"prompt_tokens", 100},
                               {"completion_tokens", 50},
                               {"prompt_tokens_details", {{"cached_tokens", 40}}},
                               {"completion_tokens_details", {{"reasoning_tokens", 30}}}}}}));
    REQUIRE(p.response.has_value());
    CHECK(p.response->text == "```cpp\nx\n```");
    CHECK(p.response->reasoning == "think");
    CHECK(p.response->finish_reason == "stop");
    CHECK(p.response->usage.input_tokens == 100);
    CHECK(p.response->usage.cached_input_tokens == 40);
    CHECK(p.response->usage.output_tokens == 50);
    CHECK(p.response->usage.reasoning_tokens == 30);
  }

  TEST_CASE("impossible usage from a server is not believed: zeroed and said so") {
    auto usage_of = [](json usage) {
      auto p = agent::parse_response(
          model("openai"),
          ok({{"choices", {{{"finish_reason", "stop"}, {"message", {{"content", "x"}}}}}}, {"usage", usage}}));
      REQUIRE(p.response.has_value());
      return p.response->usage;
    };
    auto huge = usage_of({{"prompt_tokens", INT64_MAX}, {"completion_tokens", 5}});
    CHECK(huge.input_tokens == 0);
    CHECK(huge.output_tokens == 0);
    CHECK(huge.invalid ==
          "the server reported impossible usage (input_tokens 9223372036854775807 is outside 0..100000000); "
          "counted as 0");
    CHECK(agent::cost_usd(huge, agent::Price{1, 1, 1}) == 0);
    auto negative = usage_of({{"prompt_tokens", 10}, {"completion_tokens", -5}});
    CHECK(negative.invalid.find("output_tokens -5 is outside") != std::string::npos);
    auto unsigned_max = usage_of({{"prompt_tokens", 18446744073709551615ull}, {"completion_tokens", 5}});
    CHECK_FALSE(unsigned_max.invalid.empty());
    auto cached =
        usage_of({{"prompt_tokens", 10}, {"completion_tokens", 5}, {"prompt_tokens_details", {{"cached_tokens", 11}}}});
    CHECK(cached.invalid.find("cached_input_tokens 11 exceeds input_tokens 10") != std::string::npos);
    auto fine = usage_of({{"prompt_tokens", 10}, {"completion_tokens", 5}});
    CHECK(fine.invalid.empty());
    CHECK(fine.input_tokens == 10);
    // anthropic adds three counts: near INT64_MAX they must not wrap to a small or negative total
    auto a = agent::parse_response(
        model("anthropic"),
        ok({{"content", {{{"type", "text"}, {"text", "x"}}}},
            {"stop_reason", "end_turn"},
            {"usage", {{"input_tokens", INT64_MAX}, {"output_tokens", 1}, {"cache_read_input_tokens", INT64_MAX}}}}));
    REQUIRE(a.response.has_value());
    CHECK_FALSE(a.response->usage.invalid.empty());
    CHECK(a.response->usage.input_tokens == 0);
  }

  TEST_CASE("servers that name it reasoning, and refusals") {
    auto p = agent::parse_response(
        model("openai"),
        ok({{"choices", {{{"message", {{"content", nullptr}, {"reasoning", "r"}, {"refusal", "I can't"}}}}}}}));
    REQUIRE(p.response.has_value());
    CHECK(p.response->reasoning == "r");
    CHECK(p.response->finish_reason == "refusal");
    CHECK(p.response->text == "I can't");
  }

  TEST_CASE("an empty choice list and a malformed body are retryable errors") {
    auto empty = agent::parse_response(model("openai"), ok({{"choices", json::array()}}));
    REQUIRE(empty.error.has_value());
    CHECK(empty.error->retryable);
    CHECK(empty.error->message == "the response has no choices");
    auto cut = agent::parse_response(model("openai"), {200, {}, "{\"choices\": [{\"mess", ""});
    REQUIRE(cut.error.has_value());
    CHECK(cut.error->retryable);
    CHECK(cut.error->message == "the response body is not JSON (19 bytes; cut short?)");
  }

  TEST_CASE("429 with Retry-After, 500 and 529 are retried; bad requests and exhausted quota are not") {
    auto limited = agent::parse_response(
        model("openai"), {429, {{"retry-after", "2"}}, R"({"error":{"message":"Rate limit reached"}})", ""});
    REQUIRE(limited.error.has_value());
    CHECK(limited.error->retryable);
    CHECK(*limited.error->retry_after_s == 2.0);
    CHECK(limited.error->message == "HTTP 429: Rate limit reached (retry after 2.00 s)");
    auto ms = agent::parse_response(model("openai"), {429, {{"retry-after-ms", "1500"}}, "", ""});
    CHECK(*ms.error->retry_after_s == 1.5);
    CHECK(agent::parse_response(model("openai"), {500, {}, "oops", ""}).error->retryable);
    auto overloaded = agent::parse_response(
        model("anthropic"),
        {529, {}, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})", ""});
    CHECK(overloaded.error->retryable);
    CHECK(overloaded.error->message == "HTTP 529: Overloaded");
    auto bad_key =
        agent::parse_response(model("openai"), {401, {}, R"({"error":{"message":"Incorrect API key"}})", ""});
    CHECK_FALSE(bad_key.error->retryable);
    auto quota = agent::parse_response(
        model("openai"),
        {429, {}, R"({"error":{"message":"You exceeded your quota","code":"insufficient_quota"}})", ""});
    CHECK_FALSE(quota.error->retryable);
    auto bad_request =
        agent::parse_response(model("openai"), {400, {}, R"({"error":{"message":"max_tokens too large"}})", ""});
    CHECK_FALSE(bad_request.error->retryable);
    auto refused = agent::parse_response(model("openai"), {0, {}, "", "Connection refused"});
    CHECK(refused.error->retryable);
    CHECK(refused.error->message == "no response: Connection refused");
  }

  TEST_CASE("openai responses: output text, reasoning summary, cut at the token limit") {
    auto p = agent::parse_response(
        model("openai-responses"),
        ok({{"id", "r1"},
            {"status", "incomplete"},
            {"incomplete_details", {{"reason", "max_output_tokens"}}},
            {"output",
             {{{"type", "reasoning"}, {"summary", {{{"type", "summary_text"}, {"text", "plan"}}}}},
              {{"type", "message"}, {"content", {{{"type", "output_text"}, {"text", "```cu"}}}}}}},
            {"usage",
             {{"input_tokens", 10},
              {"output_tokens", 20},
              {"input_tokens_details", {{"cached_tokens", 5}}},
              {"output_tokens_details", {{"reasoning_tokens", 15}}}}}}));
    REQUIRE(p.response.has_value());
    CHECK(p.response->text == "```cu");
    CHECK(p.response->reasoning == "plan");
    CHECK(p.response->finish_reason == "length");
    CHECK(p.response->usage.cached_input_tokens == 5);
    CHECK(p.response->usage.reasoning_tokens == 15);
  }

  TEST_CASE("anthropic: text and thinking blocks, cache reads counted as input") {
    auto p = agent::parse_response(
        model("anthropic"),
        ok({{"id", "msg_1"},
            {"stop_reason", "max_tokens"},
            {"content", {{{"type", "thinking"}, {"thinking", "hmm"}}, {{"type", "text"}, {"text", "code"}}}},
            {"usage",
             {{"input_tokens", 10},
              {"cache_read_input_tokens", 90},
              {"cache_creation_input_tokens", 0},
              {"output_tokens", 7}}}}));
    REQUIRE(p.response.has_value());
    CHECK(p.response->text == "code");
    CHECK(p.response->reasoning == "hmm");
    CHECK(p.response->finish_reason == "length");
    CHECK(p.response->usage.input_tokens == 100);
    CHECK(p.response->usage.cached_input_tokens == 90);
  }
}

TEST_SUITE("agent::provider cost and backoff") {
  TEST_CASE("cost uses the cached price for cached tokens") {
    agent::Usage u{1000000, 400000, 100000, 50000};
    agent::Price p{1.25, 0.125, 10};
    CHECK(agent::cost_usd(u, p) == doctest::Approx(0.6 * 1.25 + 0.4 * 0.125 + 0.1 * 10));
  }

  TEST_CASE("backoff doubles, is capped, jittered, and never shorter than Retry-After") {
    CHECK(agent::backoff_seconds(0, 1, 60, 0.0, std::nullopt) == 0.5);
    CHECK(agent::backoff_seconds(0, 1, 60, 0.999999, std::nullopt) == doctest::Approx(1.0));
    CHECK(agent::backoff_seconds(3, 1, 60, 0.0, std::nullopt) == 4.0);
    CHECK(agent::backoff_seconds(10, 1, 60, 0.0, std::nullopt) == 30.0);
    CHECK(agent::backoff_seconds(0, 1, 60, 0.0, 7.0) == 7.0);
  }
}
