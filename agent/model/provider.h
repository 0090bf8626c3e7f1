// Model providers: how a chat request becomes an HTTP request for each API,
// and how an HTTP response becomes text, reasoning and token usage, or a
// classified failure. The wire formats live here, one per Api of the
// provider table (provider_table.h), whose row also gives each provider's
// endpoint and fields; the transport (libcurl) and the retry loop are
// elsewhere, so these functions are pure and their tests check every request
// field and every response shape exactly.
//
//   chat_completions    POST {base_url}/chat/completions (openai, and
//                       openai_compatible for every other server; reasoning
//                       from reasoning_content or reasoning)
//   responses           POST {base_url}/responses (openai-responses)
//   anthropic_messages  POST {base_url}/v1/messages (thinking when budgeted)
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agent/config.h"
#include "base/result.h"

namespace agent {

struct Message {
  std::string role;  // user | assistant
  std::string content;
};

struct ChatRequest {
  std::string system;
  std::vector<Message> messages;
};

struct Usage {
  int64_t input_tokens = 0;  // all prompt tokens, cached ones included
  int64_t cached_input_tokens = 0;
  int64_t output_tokens = 0;  // all completion tokens, reasoning included
  int64_t reasoning_tokens = 0;
  // Why the server's counts were not believed (negative, beyond kMaxTokens,
  // cached above input, reasoning above output); the counts are then 0, so
  // that totals and cost stay sane, and the record says so. Empty when fine.
  std::string invalid;
};

// The most tokens one request may report in any count.
constexpr int64_t kMaxTokens = 100'000'000;

// Checks counts as the server sent them; on a bad one, zeroes them all and sets `invalid`.
void validate_usage(Usage& usage);

// USD for one request at the model's prices (per million tokens).
double cost_usd(const Usage& usage, const Price& price);

struct ChatResponse {
  std::string text;
  std::string reasoning;
  std::string finish_reason;  // stop | length | refusal | ...
  std::string id;
  Usage usage;
};

struct HttpRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

struct HttpResponse {
  int status = 0;                              // 0 when the transport failed
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::string transport_error;  // connection refused, timeout, cut short...
  bool interrupted = false;     // abandoned because the run is stopping
};

// Why a request failed, and whether trying again can help.
struct ProviderError {
  bool retryable = false;
  std::string message;                  // "HTTP 429: rate limit reached (retry after 2 s)"
  std::optional<double> retry_after_s;  // from Retry-After, when given
};

// Builds the HTTP request; the API key is passed in, never read here. An
// error for a provider that speaks no HTTP (replay).
base::Result<HttpRequest> build_request(const ModelConfig& model, const ChatRequest& request,
                                        const std::string& api_key);

// Parses a response: a ChatResponse, or a ProviderError saying whether to retry.
struct ParsedResponse {
  std::optional<ChatResponse> response;
  std::optional<ProviderError> error;
};
ParsedResponse parse_response(const ModelConfig& model, const HttpResponse& http);

// The delay before retry number `attempt` (0-based): exponential from
// base_s, capped at max_s, jittered into its upper half by `unit_random` in [0,1);
// Retry-After, when given, is a floor.
double backoff_seconds(int attempt, double base_s, double max_s, double unit_random,
                       std::optional<double> retry_after_s);

}  // namespace agent
