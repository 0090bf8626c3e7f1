#include "agent/model_client.h"

#include <algorithm>
#include <cstdlib>

namespace agent {

base::Result<std::string> api_key_for(const ModelConfig& model) {
  if (model.api_key_env.empty()) return std::string();
  const char* key = std::getenv(model.api_key_env.c_str());
  if (!key || !*key)
    return base::Error{"model '" + model.name + "': the environment variable " + model.api_key_env +
                       " is not set (it should hold the API key)"};
  return std::string(key);
}

ModelClient::ModelClient(ModelConfig model, std::string api_key, HttpClient& http, Sleeper sleep,
                         uint64_t seed, RetryPolicy policy)
    : model_(std::move(model)), api_key_(std::move(api_key)), http_(http), sleep_(std::move(sleep)),
      policy_(policy), in_flight_(std::max(1, model_.concurrency)), rng_(seed) {}

base::Result<Completion> ModelClient::complete(const ChatRequest& request) {
  in_flight_.acquire();
  struct Release {
    std::counting_semaphore<>& slots;
    ~Release() { slots.release(); }
  } release{in_flight_};

  const HttpRequest http_request = build_request(model_, request, api_key_);
  Completion c;
  for (int attempt = 0; attempt < policy_.max_attempts; ++attempt) {
    ++c.requests;
    HttpResponse http = http_.post(http_request, model_.request_timeout);
    ParsedResponse parsed = parse_response(model_, http);
    if (parsed.response) {
      c.response = std::move(*parsed.response);
      return c;
    }
    const ProviderError& e = *parsed.error;
    std::string where = "model '" + model_.name + "': ";
    if (!e.retryable) return base::Error{where + e.message + " (not retried)"};
    c.retried_errors.push_back(e.message);
    if (attempt + 1 == policy_.max_attempts)
      return base::Error{where + "gave up after " + std::to_string(c.requests) + " requests; last: " + e.message};
    double unit;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      unit = std::uniform_real_distribution<double>(0, 1)(rng_);
    }
    sleep_(backoff_seconds(attempt, policy_.base_s, policy_.max_s, unit, e.retry_after_s));
  }
  return base::Error{"model '" + model_.name + "': no attempts allowed"};
}

}  // namespace agent
