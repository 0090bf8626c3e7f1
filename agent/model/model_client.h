// One model's client: sends a chat request through the provider's wire
// format, retries what can heal (408/409/429/5xx/529, transport failures,
// malformed or empty bodies) with exponential backoff and jitter, honours
// Retry-After, and gives up at once on what will not (bad key, exhausted
// quota, bad request). At most `concurrency` requests are in flight.
//
// No wait is longer than the model's `max_retry_wait` (a server's Retry-After
// included: a Retry-After beyond it is waited for that long, then retried),
// and every wait ends at once when the run is stopped: the Sleeper says it
// was cut short, and complete() returns an `interrupted` Error.
//
// Sleeping and randomness are injected (a Sleeper and a seed), so the retry
// loop is tested exactly. complete() is thread-safe.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <random>
#include <semaphore>
#include <string>
#include <vector>

#include "agent/config.h"
#include "agent/model/http.h"
#include "agent/model/provider.h"
#include "base/result.h"

namespace agent {

// Sleeps `seconds`; false when it was cut short (the run is stopping).
using Sleeper = std::function<bool(double seconds)>;

// The real Sleeper: sleeps in steps of 20 ms, watching `stop`.
bool sleep_unless(double seconds, const std::atomic<bool>& stop);

struct RetryPolicy {
  int max_attempts = 6;  // requests in all, the first included
  double base_s = 2;     // first backoff
  double max_s = 120;    // longest backoff
};

// What a completed call cost: the response, how many requests it took, and the
// errors of the ones that failed.
struct Completion {
  ChatResponse response;
  int requests = 0;
  std::vector<std::string> retried_errors;
};

class ModelClient {
 public:
  // api_key: already read from the model's api_key_env by the caller.
  ModelClient(ModelConfig model, std::string api_key, HttpClient& http, Sleeper sleep, uint64_t seed,
              RetryPolicy policy = {});

  base::Result<Completion> complete(const ChatRequest& request);
  const ModelConfig& model() const { return model_; }

 private:
  ModelConfig model_;
  std::string api_key_;
  HttpClient& http_;
  Sleeper sleep_;
  RetryPolicy policy_;
  std::counting_semaphore<> in_flight_;  // model_.concurrency requests at once
  std::mutex mutex_;                     // guards rng_
  std::mt19937_64 rng_;
};

// Reads the API key a model names; an Error naming the variable if unset.
base::Result<std::string> api_key_for(const ModelConfig& model);

}  // namespace agent
