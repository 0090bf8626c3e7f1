// HTTP for the model providers: one POST with a deadline. The real client is
// libcurl (hidden in http.cc); tests use it against a loopback server.
// A transport failure (refused, timed out, cut short) is an HttpResponse with
// status 0 and transport_error set, not an Error: the retry policy decides.
// CurlHttpClient::post is thread-safe (one easy handle per call).
#pragma once

#include <atomic>

#include "agent/model/provider.h"
#include "base/result.h"

namespace agent {

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  virtual HttpResponse post(const HttpRequest& request, double timeout_seconds) = 0;
};

class CurlHttpClient : public HttpClient {
 public:
  // Initialises libcurl once per process. A transfer in flight when `stop`
  // turns true is abandoned within a fraction of a second, and its response
  // says `interrupted`.
  explicit CurlHttpClient(const std::atomic<bool>* stop = nullptr);
  HttpResponse post(const HttpRequest& request, double timeout_seconds) override;

 private:
  const std::atomic<bool>* stop_;
};

}  // namespace agent
