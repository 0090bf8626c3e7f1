#include "base/redact.h"

#include <sys/prctl.h>

#include <cstdlib>
#include <cstring>

extern char** environ;

#include <algorithm>
#include <cctype>
#include <utility>

namespace base {

Redactor::Redactor(std::vector<std::string> secrets) {
  for (auto& s : secrets)
    if (s.size() >= kMinLength && std::find(secrets_.begin(), secrets_.end(), s) == secrets_.end())
      secrets_.push_back(std::move(s));
}

std::string Redactor::redact(std::string_view text) const {
  // hidden[i]: text[i] is part of some occurrence. Occurrences of one secret
  // come in order, so each byte is marked at most once per secret.
  std::vector<char> hidden;
  for (const auto& s : secrets_) {
    size_t marked = 0;
    for (size_t at = text.find(s); at != std::string_view::npos; at = text.find(s, at + 1)) {
      if (hidden.empty()) hidden.assign(text.size(), 0);
      std::fill(hidden.begin() + std::max(at, marked), hidden.begin() + at + s.size(), 1);
      marked = at + s.size();
    }
  }
  if (hidden.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (!hidden[i])
      out += text[i];
    else if (i == 0 || !hidden[i - 1])
      out += kMarker;
  }
  return out;
}

namespace {

struct NamedSecret {
  std::string name, value;
};

// Every entry of env that secrets_from_environment() takes, with its name.
std::vector<NamedSecret> named_secrets(const std::vector<std::string>& env,
                                       const std::vector<std::string>& extra_names) {
  static constexpr std::string_view kMarkers[] = {"KEY",    "TOKEN",      "SECRET", "PASSWORD",
                                                  "PASSWD", "CREDENTIAL", "AUTH",   "COOKIE"};
  std::vector<NamedSecret> out;
  for (const auto& entry : env) {
    size_t eq = entry.find('=');
    if (eq == std::string::npos || eq + 1 == entry.size()) continue;
    std::string name = entry.substr(0, eq), upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    bool named = std::find(extra_names.begin(), extra_names.end(), name) != extra_names.end();
    bool looks_secret = std::any_of(std::begin(kMarkers), std::end(kMarkers),
                                    [&](std::string_view m) { return upper.find(m) != std::string::npos; });
    std::string value = entry.substr(eq + 1);
    if (named || (looks_secret && !looks_like_setting(value))) out.push_back({std::move(name), std::move(value)});
  }
  return out;
}

}  // namespace

bool looks_like_setting(std::string_view value) {
  static constexpr std::string_view kWords[] = {"true", "false", "yes",  "no",      "on",      "off",
                                                "none", "null",  "auto", "enabled", "disabled"};
  std::string lower(value);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (std::find(std::begin(kWords), std::end(kWords), lower) != std::end(kWords)) return true;
  return !value.empty() && value.size() <= 3 &&
         std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string> secrets_from_environment(const std::vector<std::string>& env,
                                                  const std::vector<std::string>& extra_names) {
  std::vector<std::string> out;
  for (auto& s : named_secrets(env, extra_names))
    if (std::find(out.begin(), out.end(), s.value) == out.end()) out.push_back(std::move(s.value));
  return out;
}

std::vector<std::string> unredactable_secret_names(const std::vector<std::string>& env,
                                                   const std::vector<std::string>& extra_names) {
  std::vector<std::string> out;
  for (auto& s : named_secrets(env, extra_names))
    if (s.value.size() < Redactor::kMinLength && !looks_like_setting(s.value)) out.push_back(std::move(s.name));
  return out;
}

void hide_environment_block() {
  std::vector<std::pair<char*, std::string>> original;
  for (char** e = environ; e && *e; ++e) original.emplace_back(*e, *e);
  clearenv();
  for (const auto& [block, kv] : original) {
    auto eq = kv.find('=');
    if (eq != std::string::npos) setenv(kv.substr(0, eq).c_str(), kv.c_str() + eq + 1, 1);
  }
  for (const auto& [block, kv] : original) std::memset(block, 0, kv.size());
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

}  // namespace base
