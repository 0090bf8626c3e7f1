#include "base/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace base {

size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: insertions, deletions, substitutions and
  // transpositions of neighbours each cost 1 ("rleu" is one step from "relu").
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_distance = std::max<size_t>(1, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    out.emplace_back(s.substr(start, pos == std::string_view::npos ? s.npos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string head_and_tail(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t head = max_bytes / 2, tail = max_bytes - head;
  std::string out(text.substr(0, head));
  out += "\n[... " + std::to_string(text.size() - head - tail) + " bytes omitted ...]\n";
  out += text.substr(text.size() - tail);
  return out;
}

std::string last_lines(std::string_view text, size_t max_lines) {
  if (max_lines == 0) return "";
  size_t end = text.size();
  while (end > 0 && text[end - 1] == '\n') --end;
  size_t pos = end, count = 0;
  while (pos > 0) {
    if (text[pos - 1] == '\n' && ++count == max_lines) break;
    --pos;
  }
  return std::string(text.substr(pos, end - pos));
}

std::string format_ms(double ms) {
  char buf[64];
  if (ms >= 1000)
    std::snprintf(buf, sizeof buf, "%.2f s", ms / 1000);
  else if (ms >= 1)
    std::snprintf(buf, sizeof buf, "%.3f ms", ms);
  else
    std::snprintf(buf, sizeof buf, "%.1f us", ms * 1000);
  return buf;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char buf[64];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", bytes, units[u]);
  return buf;
}

std::optional<uint64_t> parse_bytes(std::string_view text) {
  const std::string t = trim(text);
  size_t end = 0;
  while (end < t.size() && (std::isdigit(static_cast<unsigned char>(t[end])) || t[end] == '.')) ++end;
  if (end == 0 || std::count(t.begin(), t.begin() + static_cast<long>(end), '.') > 1) return std::nullopt;
  const double number = std::strtod(t.substr(0, end).c_str(), nullptr);
  std::string unit = trim(t.substr(end));
  if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b') && unit != "B" && unit != "b") unit.pop_back();
  double scale = 0;
  if (unit.empty() || unit == "B" || unit == "b") scale = 1;
  static const char kPrefixes[] = "KMGT";
  for (int k = 0; k < 4; ++k) {
    const char upper = kPrefixes[k], lower = static_cast<char>(std::tolower(upper));
    if (unit == std::string(1, upper) || unit == std::string(1, lower)) scale = std::pow(1000.0, k + 1);
    if (unit == std::string(1, upper) + "i" || unit == std::string(1, lower) + "i") scale = std::pow(1024.0, k + 1);
  }
  const double bytes = number * scale;
  if (scale == 0 || !std::isfinite(bytes) || bytes > 9.2e18) return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::optional<std::string> path_component_problem(std::string_view name) {
  if (name.empty()) return "it is empty";
  if (name.size() > 100) return "it is longer than 100 characters";
  if (name[0] == '.' || name[0] == '-') return std::string("it starts with '") + name[0] + "'";
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-' || c == '+';
    if (!ok) {
      if (c == '/') return std::string("it holds '/'");
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
        return std::string("it holds a character that is not printable ASCII");
      return std::string("it holds '") + c + "'";
    }
  }
  return std::nullopt;
}

}  // namespace base
