// The model client against a real HTTP server on loopback, through libcurl.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "agent/model/model_client.h"
#include "http_server.h"

using nlohmann::json;
using test_http::Reply;

namespace {

const std::string kOk = R"({"id":"c1","choices":[{"finish_reason":"stop","message":{"content":"```cpp\nok\n```"}}],)"
                        R"("usage":{"prompt_tokens":12,"completion_tokens":8}})";

agent::ModelConfig model(const std::string& url, const std::string& provider = "openai_compatible") {
  agent::ModelConfig m;
  m.name = "local";
  m.provider = *agent::parse_provider(provider);
  m.model = "test-model";
  m.base_url = url + "/v1";
  m.max_output_tokens = 256;
  m.request_timeout = 5;
  return m;
}

struct Harness {
  explicit Harness(std::vector<Reply> script, const std::string& provider = "openai_compatible")
      : server(std::move(script)),
        client(
            model(server.url(), provider), "sk-local", http,
            [this](double s) {
              sleeps.push_back(s);
              return true;
            },
            42, agent::RetryPolicy{4, 0.01, 0.05}) {}
  test_http::Server server;
  agent::CurlHttpClient http;
  std::vector<double> sleeps;
  agent::ModelClient client;
};

agent::ChatRequest request() {
  return {"system text", {{"user", "write relu"}}};
}

}  // namespace

TEST_SUITE("agent::ModelClient over loopback HTTP") {
  TEST_CASE("a plain success, with the request as the server received it") {
    Harness h({{200, kOk}});
    auto c = h.client.complete(request());
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    CHECK(c->response.text == "```cpp\nok\n```");
    CHECK(c->response.usage.input_tokens == 12);
    CHECK(c->requests == 1);
    auto got = h.server.received();
    REQUIRE(got.size() == 1);
    CHECK(got[0].method == "POST");
    CHECK(got[0].path == "/v1/chat/completions");
    CHECK(got[0].headers["authorization"] == "Bearer sk-local");
    CHECK(got[0].headers["content-type"] == "application/json");
    auto body = json::parse(got[0].body);
    CHECK(body["model"] == "test-model");
    CHECK(body["max_tokens"] == 256);
    CHECK_FALSE(body.contains("max_completion_tokens"));
    CHECK(body["messages"][0] == json{{"role", "system"}, {"content", "system text"}});
    CHECK(body["messages"][1] == json{{"role", "user"}, {"content", "write relu"}});
  }

  TEST_CASE("openai is OpenAI's API at any base_url: the cap is max_completion_tokens, never max_tokens") {
    // The README's own example writes base_url: https://api.openai.com/v1,
    // and OpenAI's reasoning models refuse max_tokens.
    Harness h({{200, kOk}}, "openai");
    auto c = h.client.complete(request());
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    auto got = h.server.received();
    REQUIRE(got.size() == 1);
    CHECK(got[0].path == "/v1/chat/completions");
    CHECK(got[0].headers["authorization"] == "Bearer sk-local");
    auto body = json::parse(got[0].body);
    CHECK(body["max_completion_tokens"] == 256);
    CHECK_FALSE(body.contains("max_tokens"));
  }

  TEST_CASE("429 with Retry-After, then 500, then 529, then success") {
    Harness h({{429, R"({"error":{"message":"slow down"}})", {{"Retry-After", "1"}}},
               {500, "internal"},
               {529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"},
               {200, kOk}});
    auto c = h.client.complete(request());
    REQUIRE(c.ok());
    CHECK(c->requests == 4);
    REQUIRE(h.sleeps.size() == 3);
    CHECK(h.sleeps[0] == 1.0);  // Retry-After outranks the 0.01 s backoff
    CHECK(h.sleeps[1] < 0.05);
    CHECK(c->retried_errors[0] == "HTTP 429: slow down (retry after 1.00 s)");
    CHECK(c->retried_errors[2] == "HTTP 529: Overloaded");
  }

  TEST_CASE("a Retry-After beyond max_retry_wait is waited for max_retry_wait, then retried") {
    test_http::Server server({{429, R"({"error":{"message":"slow down"}})", {{"Retry-After", "100000"}}}, {200, kOk}});
    agent::CurlHttpClient http;
    std::vector<double> sleeps;
    auto m = model(server.url());
    m.max_retry_wait = 3;
    agent::ModelClient client(
        m, "sk-local", http,
        [&](double s) {
          sleeps.push_back(s);
          return true;
        },
        42, agent::RetryPolicy{4, 0.01, 0.05});
    auto c = client.complete(request());
    REQUIRE(c.ok());
    REQUIRE(sleeps.size() == 1);
    CHECK(sleeps[0] == 3.0);
  }

  TEST_CASE("a wait cut short by a stop ends the request with an interrupted error, asking nothing more") {
    test_http::Server server({{429, R"({"error":{"message":"slow down"}})", {{"Retry-After", "60"}}}, {200, kOk}});
    agent::CurlHttpClient http;
    std::atomic<bool> stop{false};
    agent::ModelClient client(
        model(server.url()), "sk-local", http,
        [&](double s) {
          stop = true;  // Ctrl-C arrives during the wait
          return agent::sleep_unless(s, stop);
        },
        42, agent::RetryPolicy{4, 0.01, 0.05});
    auto c = client.complete(request());
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().kind == base::ErrorKind::interrupted);
    CHECK(c.error().message ==
          "model 'local': stopped while waiting 60.00 s to retry (HTTP 429: slow down (retry after 60.00 s))");
    CHECK(server.received().size() == 1);
  }

  TEST_CASE("a request in flight is abandoned when the run stops") {
    test_http::Server server({{200, kOk, {}, 4000}});
    std::atomic<bool> stop{false};
    agent::CurlHttpClient http(&stop);
    agent::ModelClient client(
        model(server.url()), "sk-local", http, [](double) { return true; }, 42, agent::RetryPolicy{4, 0.01, 0.05});
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      stop = true;
    });
    auto c = client.complete(request());
    stopper.join();
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().kind == base::ErrorKind::interrupted);
    CHECK(c.error().message == "model 'local': stopped while the request was in flight");
  }

  TEST_CASE("a timeout, a malformed body, a body cut short and an empty choice list are retried") {
    Harness h({{200, kOk, {}, 6000}, {200, "<html>gateway</html>"}, {200, kOk, {}, 0, 20}, {200, R"({"choices":[]})"}});
    auto c = h.client.complete(request());
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().message.find("model 'local': gave up after 4 requests; last: the response has no choices") == 0);
    REQUIRE(h.sleeps.size() == 3);
    CHECK(h.server.received().size() == 4);
  }

  TEST_CASE("what a retry cannot heal is not retried") {
    Harness h({{401, R"({"error":{"message":"Incorrect API key provided"}})"}, {200, kOk}});
    auto c = h.client.complete(request());
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().message == "model 'local': HTTP 401: Incorrect API key provided (not retried)");
    CHECK(h.server.received().size() == 1);
    CHECK(h.sleeps.empty());
  }

  TEST_CASE("a refusal is a response, not an error") {
    Harness h(
        {{200,
          R"({"choices":[{"finish_reason":"stop","message":{"content":null,"refusal":"I can't help with that."}}]})"}});
    auto c = h.client.complete(request());
    REQUIRE(c.ok());
    CHECK(c->response.finish_reason == "refusal");
    CHECK(c->response.text == "I can't help with that.");
  }

  TEST_CASE("anthropic's wire format end to end, with a 529 retried") {
    // Anthropic's base_url is the host, as in its SDK; the client adds /v1/messages.
    test_http::Server server(
        {{529, R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"},
         {200,
          R"({"id":"msg","stop_reason":"end_turn","content":[{"type":"thinking","thinking":"plan"},{"type":"text","text":"hi"}],)"
          R"("usage":{"input_tokens":3,"cache_read_input_tokens":4,"output_tokens":1}})"}});
    auto m = model(server.url(), "anthropic");
    m.base_url = server.url();
    m.thinking_budget = 1024;
    agent::CurlHttpClient http;
    std::vector<double> sleeps;
    agent::ModelClient client(
        m, "sk-ant-local", http,
        [&](double s) {
          sleeps.push_back(s);
          return true;
        },
        42, agent::RetryPolicy{4, 0.01, 0.05});
    auto c = client.complete(request());
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    CHECK(c->response.text == "hi");
    CHECK(c->response.reasoning == "plan");
    CHECK(c->response.usage.input_tokens == 7);
    CHECK(c->response.usage.cached_input_tokens == 4);
    CHECK(c->requests == 2);
    CHECK(sleeps.size() == 1);
    auto got = server.received();
    REQUIRE(got.size() == 2);
    CHECK(got[1].path == "/v1/messages");
    CHECK(got[1].headers["x-api-key"] == "sk-ant-local");
    CHECK(got[1].headers["anthropic-version"] == "2023-06-01");
    CHECK(got[1].headers.count("authorization") == 0);
    auto body = json::parse(got[1].body);
    CHECK(body["model"] == "test-model");
    CHECK(body["system"] == "system text");
    CHECK(body["messages"] == json::array({{{"role", "user"}, {"content", "write relu"}}}));
    CHECK(body["thinking"] == json{{"type", "enabled"}, {"budget_tokens", 1024}});
  }

  TEST_CASE("openai responses' wire format end to end, with a body cut short retried") {
    const std::string ok =
        R"({"id":"resp_1","status":"completed","output":[{"type":"reasoning","summary":[{"type":"summary_text","text":"plan"}]},)"
        R"({"type":"message","content":[{"type":"output_text","text":"```cuda\nk\n```"}]}],)"
        R"("usage":{"input_tokens":9,"output_tokens":30,"input_tokens_details":{"cached_tokens":2},"output_tokens_details":{"reasoning_tokens":20}}})";
    Harness h({{200, ok, {}, 0, 40}, {200, ok}}, "openai-responses");
    auto c = h.client.complete(request());
    REQUIRE_MESSAGE(c.ok(), (c.ok() ? "" : c.error().message));
    CHECK(c->response.text == "```cuda\nk\n```");
    CHECK(c->response.reasoning == "plan");
    CHECK(c->response.usage.output_tokens == 30);
    CHECK(c->response.usage.reasoning_tokens == 20);
    CHECK(c->response.usage.cached_input_tokens == 2);
    CHECK(c->requests == 2);
    auto got = h.server.received();
    REQUIRE(got.size() == 2);
    CHECK(got[1].path == "/v1/responses");
    CHECK(got[1].headers["authorization"] == "Bearer sk-local");
    auto body = json::parse(got[1].body);
    CHECK(body["model"] == "test-model");
    CHECK(body["instructions"] == "system text");
    CHECK(body["input"] == json::array({{{"role", "user"}, {"content", "write relu"}}}));
    CHECK(body["max_output_tokens"] == 256);
  }

  TEST_CASE("a missing API key names the variable") {
    agent::ModelConfig m;
    m.name = "cloud";
    m.api_key_env = "REFINERY_TEST_KEY_THAT_IS_NOT_SET";
    auto key = agent::api_key_for(m);
    REQUIRE_FALSE(key.ok());
    CHECK(key.error().message ==
          "model 'cloud': the environment variable REFINERY_TEST_KEY_THAT_IS_NOT_SET is not set (it should hold the "
          "API key)");
  }
}
