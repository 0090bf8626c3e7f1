// Output for people: plain lines, "FAILED:" blocks, and colour only on a real
// terminal without NO_COLOR. Programs get JSON from --json instead. One per
// command, used from the main thread.
#pragma once

#include <cstdio>
#include <string>

namespace agent {

class Printer {
 public:
  explicit Printer(FILE* out = stdout);
  void line(const std::string& text);
  // "FAILED: what" in red on a terminal, then the details indented.
  void failed(const std::string& what, const std::string& details);
  std::string bold(const std::string& text) const;
  std::string green(const std::string& text) const;
  std::string red(const std::string& text) const;
  bool colour() const { return colour_; }

 private:
  std::string wrap(const char* code, const std::string& text) const;
  FILE* out_;
  bool colour_;
};

}  // namespace agent
