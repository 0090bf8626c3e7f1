#include "agent/model/model_client.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "base/text.h"

namespace agent {

base::Result<std::string> api_key_for(const ModelConfig& model) {
  if (model.api_key_env.empty()) return std::string();
  const char* key = std::getenv(model.api_key_env.c_str());
  if (!key || !*key)
    return base::Error{"model '" + model.name + "': the environment variable " + model.api_key_env +
                       " is not set (it should hold the API key)"};
  return std::string(key);
}

bool sleep_unless(double seconds, const std::atomic<bool>& stop) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point until =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::max(0.0, seconds)));
  while (!stop.load()) {
    const Clock::time_point now = Clock::now();
    if (now >= until) return true;
    const Clock::duration step = std::chrono::milliseconds(20);
    std::this_thread::sleep_for(std::min<Clock::duration>(until - now, step));
  }
  return false;
}

ModelClient::ModelClient(ModelConfig model, std::string api_key, HttpClient& http, Sleeper sleep, uint64_t seed,
                         RetryPolicy policy)
    : model_(std::move(model)),
      api_key_(std::move(api_key)),
      http_(http),
      sleep_(std::move(sleep)),
      policy_(policy),
      in_flight_(std::max(1, model_.concurrency)),
      rng_(seed) {}

base::Result<Completion> ModelClient::complete(const ChatRequest& request) {
  in_flight_.acquire();
  struct Release {
    std::counting_semaphore<>& slots;
    ~Release() { slots.release(); }
  } release{in_flight_};

  TRY_ASSIGN(const HttpRequest http_request, build_request(model_, request, api_key_));
  Completion c;
  for (int attempt = 0; attempt < policy_.max_attempts; ++attempt) {
    ++c.requests;
    HttpResponse http = http_.post(http_request, model_.request_timeout);
    if (http.interrupted)
      return base::Error{"model '" + model_.name + "': stopped while the request was in flight",
                         base::ErrorKind::interrupted};
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
    const double wait =
        std::min(backoff_seconds(attempt, policy_.base_s, policy_.max_s, unit, e.retry_after_s), model_.max_retry_wait);
    if (!sleep_(wait))
      return base::Error{
          where + "stopped while waiting " + base::format_ms(wait * 1000) + " to retry (" + e.message + ")",
          base::ErrorKind::interrupted};
  }
  return base::Error{"model '" + model_.name + "': no attempts allowed"};
}

}  // namespace agent
