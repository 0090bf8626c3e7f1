#include "eval/build/compile_log.h"

#include <sstream>

#include "base/text.h"

namespace eval {
namespace {

constexpr const char* kMarker = "refinery: error: ";

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// "candidate.cu(12): error: ..." (nvcc) or "candidate.cpp:12:5: error: ..." (gcc): the location, or "".
std::string location_of(const std::string& line) {
  size_t e = line.find(": error");
  if (e == std::string::npos) return "";
  return line.substr(0, e);
}

}  // namespace

std::string clean_compile_log(const std::string& log, const std::vector<PathRewrite>& rewrites) {
  std::string text = log;
  for (const auto& r : rewrites) text = replace_all(text, r.from, r.to);
  std::vector<std::string> ours;
  auto add = [&](const std::string& line) {
    for (const auto& o : ours)
      if (o == line) return;
    ours.push_back(line);
  };
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (size_t at = line.find(kMarker); at != std::string::npos) {
      std::string message = line.substr(at);
      // nvcc quotes the static_assert's message: static assertion failed with "refinery: ..."
      while (!message.empty() && (message.back() == '"' || message.back() == '\r')) message.pop_back();
      add(message);
    } else if (line.find("is not a member of 'pybind11'") != std::string::npos ||
               line.find("is not a member of 'py'") != std::string::npos ||
               line.find("namespace \"pybind11\" has no member") != std::string::npos) {
      std::string where = location_of(line);
      add(std::string(kMarker) + (where.empty() ? "" : where + ": ") +
          "remove the pybind11 (py::) code: refinery loads the candidate without Python and calls "
          "forward() with tensors directly");
    }
  }
  if (ours.empty()) return text;
  return base::join(ours, "\n") + "\n\n" + text;
}

std::string refinery_errors(const std::string& cleaned_log) {
  if (!base::starts_with(cleaned_log, kMarker)) return "";
  size_t end = cleaned_log.find("\n\n");
  return cleaned_log.substr(0, end);
}

}  // namespace eval
