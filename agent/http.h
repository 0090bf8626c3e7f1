// HTTP for the model providers: one POST with a deadline. The real client is
// libcurl (hidden in http.cc); tests use it against a loopback server.
// A transport failure (refused, timed out, cut short) is an HttpResponse with
// status 0 and transport_error set, not an Error: the retry policy decides.
// CurlHttpClient::post is thread-safe (one easy handle per call).
#pragma once

#include "agent/provider.h"
#include "base/result.h"

namespace agent {

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  virtual HttpResponse post(const HttpRequest& request, double timeout_seconds) = 0;
};

class CurlHttpClient : public HttpClient {
 public:
  CurlHttpClient();  // initialises libcurl once per process
  HttpResponse post(const HttpRequest& request, double timeout_seconds) override;
};

}  // namespace agent
