// A real HTTP/1.1 server on loopback for the provider tests: it listens on
// 127.0.0.1 at a free port, answers each request from a script (status,
// headers, body, a delay, or a body cut short), closes each connection after
// one response, and records what it received. One background thread.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace test_http {

struct Reply {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  int delay_ms = 0;  // wait before answering
  int cut_to = -1;   // send only this many body bytes, then close (Content-Length stays full)
};

struct Received {
  std::string method, path, body;
  std::map<std::string, std::string> headers;  // names lower-cased
};

class Server {
 public:
  explicit Server(std::vector<Reply> script) : script_(script.begin(), script.end()) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    listen(fd_, 16);
    socklen_t len = sizeof addr;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { loop(); });
  }
  ~Server() {
    stop_ = true;
    thread_.join();
    close(fd_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::vector<Received> received() {
    std::lock_guard<std::mutex> lock(mutex_);
    return received_;
  }

 private:
  void loop() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      int c = accept(fd_, nullptr, nullptr);
      if (c < 0) continue;
      serve(c);
      close(c);
    }
  }

  void serve(int c) {
    std::string data;
    char buf[65536];
    size_t header_end;
    while ((header_end = data.find("\r\n\r\n")) == std::string::npos) {
      ssize_t n = recv(c, buf, sizeof buf, 0);
      if (n <= 0) return;
      data.append(buf, static_cast<size_t>(n));
    }
    Received r;
    std::string head = data.substr(0, header_end);
    size_t line_end = head.find("\r\n");
    std::string first = head.substr(0, line_end);
    r.method = first.substr(0, first.find(' '));
    r.path = first.substr(first.find(' ') + 1, first.rfind(' ') - first.find(' ') - 1);
    size_t pos = line_end + 2;
    while (pos < head.size()) {
      size_t end = head.find("\r\n", pos);
      if (end == std::string::npos) end = head.size();
      std::string line = head.substr(pos, end - pos);
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::tolower(ch); });
        size_t v = line.find_first_not_of(' ', colon + 1);
        r.headers[name] = v == std::string::npos ? "" : line.substr(v);
      }
      pos = end + 2;
    }
    size_t length = r.headers.count("content-length") ? std::stoul(r.headers["content-length"]) : 0;
    r.body = data.substr(header_end + 4);
    while (r.body.size() < length) {
      ssize_t n = recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      r.body.append(buf, static_cast<size_t>(n));
    }
    Reply reply;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      received_.push_back(r);
      if (!script_.empty()) {
        reply = script_.front();
        script_.pop_front();
      } else {
        reply = {500, R"({"error":{"message":"script exhausted"}})"};
      }
    }
    if (reply.delay_ms) {
      auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(reply.delay_ms);
      while (!stop_ && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::string out = "HTTP/1.1 " + std::to_string(reply.status) +
                      " Status\r\nContent-Type: application/json\r\n"
                      "Connection: close\r\nContent-Length: " +
                      std::to_string(reply.body.size()) + "\r\n";
    for (const auto& [k, v] : reply.headers) out += k + ": " + v + "\r\n";
    out += "\r\n" + (reply.cut_to >= 0 ? reply.body.substr(0, reply.cut_to) : reply.body);
    send(c, out.data(), out.size(), MSG_NOSIGNAL);
  }

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::deque<Reply> script_;
  std::vector<Received> received_;
};

}  // namespace test_http
