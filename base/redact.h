// Redaction of secrets from text a candidate (or the compiler quoting it) can
// print: API keys found in refinery's environment become [REDACTED] before an
// outcome is shown, recorded or fed back to a model.
//
// A Redactor is immutable once built: redact() is safe from any thread.
// secrets_from_environment() is pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace base {

class Redactor {
 public:
  // Secrets shorter than kMinLength are ignored: they would hide ordinary words.
  static constexpr size_t kMinLength = 8;
  static constexpr std::string_view kMarker = "[REDACTED]";

  explicit Redactor(std::vector<std::string> secrets);

  // text with every occurrence of every secret replaced by kMarker; where
  // occurrences overlap or touch, their union becomes one marker.
  std::string redact(std::string_view text) const;

  const std::vector<std::string>& secrets() const { return secrets_; }

 private:
  std::vector<std::string> secrets_;  // long enough, distinct
};

// The values of the "NAME=VALUE" entries in env whose NAME looks like a secret
// (contains KEY, TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL, AUTH or COOKIE,
// in any case) or is one of extra_names (a config's api_key_env). Non-empty
// values only, each once, in env's order.
std::vector<std::string> secrets_from_environment(const std::vector<std::string>& env,
                                                  const std::vector<std::string>& extra_names);

// Moves this process's environment to the heap (getenv and setenv keep
// working) and zeroes the block the kernel shows as /proc/<pid>/environ, then
// marks the process not dumpable: a child that reads its parent's environ (a
// compiler told to #include it) finds nothing. Call first thing in main,
// before any thread starts.
void hide_environment_block();

}  // namespace base
