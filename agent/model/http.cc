#include "agent/model/http.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <mutex>

#include "base/text.h"

namespace agent {
namespace {

// libcurl's C callbacks: the one static hook each, forwarding to the response.
size_t on_body(char* data, size_t size, size_t count, void* user) {
  static_cast<HttpResponse*>(user)->body.append(data, size * count);
  return size * count;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  std::string line(data, size * count);
  auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    static_cast<HttpResponse*>(user)->headers[name] = base::trim(line.substr(colon + 1));
  }
  return size * count;
}

// Aborts the transfer once the run is stopping.
int on_progress(void* stop, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return stop && static_cast<const std::atomic<bool>*>(stop)->load() ? 1 : 0;
}

}  // namespace

CurlHttpClient::CurlHttpClient(const std::atomic<bool>* stop) : stop_(stop) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

HttpResponse CurlHttpClient::post(const HttpRequest& request, double timeout_seconds) {
  HttpResponse response;
  CURL* curl = curl_easy_init();
  if (!curl) {
    response.transport_error = "curl_easy_init failed";
    return response;
  }
  curl_slist* headers = nullptr;
  for (const auto& [name, value] : request.headers) headers = curl_slist_append(headers, (name + ": " + value).c_str());
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 30000L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_seconds * 1000));
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, const_cast<std::atomic<bool>*>(stop_));
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  CURLcode rc = curl_easy_perform(curl);
  if (rc == CURLE_OK) {
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    response.status = static_cast<int>(status);
  } else {
    response.status = 0;
    response.transport_error = curl_easy_strerror(rc);
    response.interrupted = rc == CURLE_ABORTED_BY_CALLBACK;
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return response;
}

}  // namespace agent
