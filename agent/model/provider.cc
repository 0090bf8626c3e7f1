#include "agent/model/provider.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "base/text.h"

namespace agent {
using base::Error;
using base::Result;
using nlohmann::json;

double cost_usd(const Usage& u, const Price& p) {
  double uncached = static_cast<double>(u.input_tokens - u.cached_input_tokens);
  return (uncached * p.input + static_cast<double>(u.cached_input_tokens) * p.cached_input +
          static_cast<double>(u.output_tokens) * p.output) /
         1e6;
}

void validate_usage(Usage& u) {
  const std::pair<const char*, int64_t> counts[] = {{"input_tokens", u.input_tokens},
                                                    {"cached_input_tokens", u.cached_input_tokens},
                                                    {"output_tokens", u.output_tokens},
                                                    {"reasoning_tokens", u.reasoning_tokens}};
  std::string why;
  for (const auto& [name, v] : counts)
    if (why.empty() && (v < 0 || v > kMaxTokens))
      why = std::string(name) + " " + std::to_string(v) + " is outside 0.." + std::to_string(kMaxTokens);
  if (why.empty() && u.cached_input_tokens > u.input_tokens)
    why = "cached_input_tokens " + std::to_string(u.cached_input_tokens) + " exceeds input_tokens " +
          std::to_string(u.input_tokens);
  if (why.empty() && u.reasoning_tokens > u.output_tokens)
    why = "reasoning_tokens " + std::to_string(u.reasoning_tokens) + " exceeds output_tokens " +
          std::to_string(u.output_tokens);
  if (why.empty()) return;
  u = Usage{};
  u.invalid = "the server reported impossible usage (" + why + "); counted as 0";
}

namespace {

std::string base_url(const ModelConfig& m) {
  std::string url = m.base_url.empty() ? provider_row(m.provider).base_url : m.base_url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

json chat_body(const ModelConfig& m, const ChatRequest& r) {
  json messages = json::array();
  if (!r.system.empty()) messages.push_back({{"role", "system"}, {"content", r.system}});
  for (const auto& msg : r.messages) messages.push_back({{"role", msg.role}, {"content", msg.content}});
  json body = {{"model", m.model}, {"messages", messages}};
  // OpenAI's own API wants max_completion_tokens, compatible servers max_tokens: the provider's row says which.
  body[provider_row(m.provider).max_tokens_field] = m.max_output_tokens;
  if (m.temperature) body["temperature"] = *m.temperature;
  if (m.top_p) body["top_p"] = *m.top_p;
  if (!m.reasoning_effort.empty()) body["reasoning_effort"] = m.reasoning_effort;
  return body;
}

json responses_body(const ModelConfig& m, const ChatRequest& r) {
  json input = json::array();
  for (const auto& msg : r.messages) input.push_back({{"role", msg.role}, {"content", msg.content}});
  json body = {{"model", m.model}, {"input", input}, {"max_output_tokens", m.max_output_tokens}};
  if (!r.system.empty()) body["instructions"] = r.system;
  if (m.temperature) body["temperature"] = *m.temperature;
  if (m.top_p) body["top_p"] = *m.top_p;
  if (!m.reasoning_effort.empty()) body["reasoning"] = {{"effort", m.reasoning_effort}, {"summary", "auto"}};
  return body;
}

json anthropic_body(const ModelConfig& m, const ChatRequest& r) {
  json messages = json::array();
  for (const auto& msg : r.messages) messages.push_back({{"role", msg.role}, {"content", msg.content}});
  json body = {{"model", m.model}, {"max_tokens", m.max_output_tokens}, {"messages", messages}};
  if (!r.system.empty()) body["system"] = r.system;
  if (m.temperature) body["temperature"] = *m.temperature;
  if (m.top_p) body["top_p"] = *m.top_p;
  if (m.thinking_budget > 0) body["thinking"] = {{"type", "enabled"}, {"budget_tokens", m.thinking_budget}};
  return body;
}

int64_t int_at(const json& j, std::initializer_list<const char*> path) {
  const json* p = &j;
  for (const char* k : path) {
    if (!p->is_object() || !p->contains(k)) return 0;
    p = &(*p)[k];
  }
  return p->is_number_integer() ? p->get<int64_t>() : 0;
}

std::string string_at(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

std::optional<double> retry_after(const HttpResponse& h) {
  if (auto it = h.headers.find("retry-after-ms"); it != h.headers.end()) {
    char* end = nullptr;
    double ms = std::strtod(it->second.c_str(), &end);
    if (end && *end == '\0' && ms >= 0) return ms / 1000;
  }
  if (auto it = h.headers.find("retry-after"); it != h.headers.end()) {
    char* end = nullptr;
    double s = std::strtod(it->second.c_str(), &end);
    if (end && *end == '\0' && s >= 0) return s;
  }
  return std::nullopt;
}

ParsedResponse failure(bool retryable, std::string message, std::optional<double> after = std::nullopt) {
  ParsedResponse p;
  p.error = ProviderError{retryable, std::move(message), after};
  return p;
}

ParsedResponse classify_http_error(const HttpResponse& h) {
  auto body = json::parse(h.body, nullptr, false);
  std::string detail, code;
  if (!body.is_discarded() && body.contains("error")) {
    const json& e = body["error"];
    detail = e.is_object() ? string_at(e, "message") : e.is_string() ? e.get<std::string>() : "";
    code = e.is_object() ? (string_at(e, "code").empty() ? string_at(e, "type") : string_at(e, "code")) : "";
  }
  if (detail.empty()) detail = base::head_and_tail(base::trim(h.body), 300);
  std::string message = "HTTP " + std::to_string(h.status) + (detail.empty() ? "" : ": " + detail);
  auto after = retry_after(h);
  if (after) message += " (retry after " + base::format_ms(*after * 1000) + ")";
  // Quota exhaustion comes as a 429 but will not heal by waiting.
  if (code == "insufficient_quota") return failure(false, message);
  int s = h.status;
  bool retryable = s == 408 || s == 409 || s == 429 || s >= 500;
  return failure(retryable, message, after);
}

ParsedResponse parse_chat(const json& body) {
  if (!body.contains("choices") || !body["choices"].is_array() || body["choices"].empty())
    return failure(true, "the response has no choices");
  const json& choice = body["choices"][0];
  const json& msg = choice.contains("message") ? choice["message"] : json::object();
  ChatResponse r;
  r.id = string_at(body, "id");
  r.text = string_at(msg, "content");
  r.reasoning = string_at(msg, "reasoning_content");
  if (r.reasoning.empty()) r.reasoning = string_at(msg, "reasoning");
  r.finish_reason = string_at(choice, "finish_reason");
  if (!string_at(msg, "refusal").empty()) {
    r.finish_reason = "refusal";
    if (r.text.empty()) r.text = string_at(msg, "refusal");
  }
  const json& u = body.contains("usage") ? body["usage"] : json::object();
  r.usage.input_tokens = int_at(u, {"prompt_tokens"});
  r.usage.cached_input_tokens = int_at(u, {"prompt_tokens_details", "cached_tokens"});
  r.usage.output_tokens = int_at(u, {"completion_tokens"});
  r.usage.reasoning_tokens = int_at(u, {"completion_tokens_details", "reasoning_tokens"});
  ParsedResponse p;
  p.response = r;
  return p;
}

ParsedResponse parse_responses(const json& body) {
  if (!body.contains("output") || !body["output"].is_array()) return failure(true, "the response has no output");
  ChatResponse r;
  r.id = string_at(body, "id");
  for (const auto& item : body["output"]) {
    std::string type = string_at(item, "type");
    if (type == "message" && item.contains("content")) {
      for (const auto& c : item["content"]) {
        if (string_at(c, "type") == "output_text") r.text += string_at(c, "text");
        if (string_at(c, "type") == "refusal") {
          r.finish_reason = "refusal";
          r.text += string_at(c, "refusal");
        }
      }
    } else if (type == "reasoning" && item.contains("summary")) {
      for (const auto& s : item["summary"]) r.reasoning += string_at(s, "text");
    }
  }
  if (r.finish_reason.empty()) {
    std::string status = string_at(body, "status");
    bool cut = status == "incomplete" && body.contains("incomplete_details") &&
               string_at(body["incomplete_details"], "reason") == "max_output_tokens";
    r.finish_reason = cut ? "length" : status == "completed" ? "stop" : status;
  }
  const json& u = body.contains("usage") ? body["usage"] : json::object();
  r.usage.input_tokens = int_at(u, {"input_tokens"});
  r.usage.cached_input_tokens = int_at(u, {"input_tokens_details", "cached_tokens"});
  r.usage.output_tokens = int_at(u, {"output_tokens"});
  r.usage.reasoning_tokens = int_at(u, {"output_tokens_details", "reasoning_tokens"});
  ParsedResponse p;
  p.response = r;
  return p;
}

ParsedResponse parse_anthropic(const json& body) {
  if (!body.contains("content") || !body["content"].is_array()) return failure(true, "the response has no content");
  ChatResponse r;
  r.id = string_at(body, "id");
  for (const auto& block : body["content"]) {
    std::string type = string_at(block, "type");
    if (type == "text") r.text += string_at(block, "text");
    if (type == "thinking") r.reasoning += string_at(block, "thinking");
  }
  std::string stop = string_at(body, "stop_reason");
  r.finish_reason = stop == "end_turn" || stop == "stop_sequence" ? "stop" : stop == "max_tokens" ? "length" : stop;
  const json& u = body.contains("usage") ? body["usage"] : json::object();
  int64_t read = int_at(u, {"cache_read_input_tokens"}), created = int_at(u, {"cache_creation_input_tokens"});
  // Saturating: three counts near INT64_MAX must not wrap to a negative total.
  int64_t input = int_at(u, {"input_tokens"});
  if (__builtin_add_overflow(input, read, &input) || __builtin_add_overflow(input, created, &input)) input = INT64_MAX;
  r.usage.input_tokens = input;
  r.usage.cached_input_tokens = read;
  r.usage.output_tokens = int_at(u, {"output_tokens"});
  ParsedResponse p;
  p.response = r;
  return p;
}

// Replay's responses come from its recordings (replay.h); nothing asks it over HTTP.
Error not_over_http(const ModelConfig& m) {
  return Error{"model '" + m.name + "': provider " + to_string(m.provider) + " makes no HTTP requests"};
}

}  // namespace

Result<HttpRequest> build_request(const ModelConfig& m, const ChatRequest& r, const std::string& api_key) {
  HttpRequest h;
  h.headers.push_back({"Content-Type", "application/json"});
  switch (provider_row(m.provider).api) {
    case Api::anthropic_messages:
      h.url = base_url(m) + "/v1/messages";
      h.headers.push_back({"x-api-key", api_key});
      h.headers.push_back({"anthropic-version", "2023-06-01"});
      h.body = anthropic_body(m, r).dump();
      return h;
    case Api::responses:
      h.url = base_url(m) + "/responses";
      h.headers.push_back({"Authorization", "Bearer " + api_key});
      h.body = responses_body(m, r).dump();
      return h;
    case Api::chat_completions:
      h.url = base_url(m) + "/chat/completions";
      if (!api_key.empty()) h.headers.push_back({"Authorization", "Bearer " + api_key});
      h.body = chat_body(m, r).dump();
      return h;
    case Api::recorded:
      break;
  }
  return not_over_http(m);
}

ParsedResponse parse_response(const ModelConfig& m, const HttpResponse& h) {
  if (h.status == 0)
    return failure(true, "no response: " + (h.transport_error.empty() ? "connection failed" : h.transport_error));
  if (h.status < 200 || h.status >= 300) return classify_http_error(h);
  auto body = json::parse(h.body, nullptr, false);
  if (body.is_discarded() || !body.is_object())
    return failure(true, "the response body is not JSON (" + std::to_string(h.body.size()) + " bytes; cut short?)");
  ParsedResponse parsed;
  switch (provider_row(m.provider).api) {
    case Api::anthropic_messages:
      parsed = parse_anthropic(body);
      break;
    case Api::responses:
      parsed = parse_responses(body);
      break;
    case Api::chat_completions:
      parsed = parse_chat(body);
      break;
    case Api::recorded:
      return failure(false, not_over_http(m).message);
  }
  if (parsed.response) validate_usage(parsed.response->usage);
  return parsed;
}

double backoff_seconds(int attempt, double base_s, double max_s, double unit_random,
                       std::optional<double> retry_after_s) {
  double ceiling = std::min(max_s, base_s * std::pow(2.0, attempt));
  double delay = ceiling * (0.5 + 0.5 * unit_random);  // half jitter: never a thundering herd, never zero
  if (retry_after_s) delay = std::max(delay, *retry_after_s);
  return delay;
}

}  // namespace agent
