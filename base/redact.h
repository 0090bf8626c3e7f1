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

// Which values are hidden, and why not the others:
// - a secret of kMinLength (4) characters or more is replaced wherever it
//   occurs, inside words too: a model or a compiler may quote it glued to
//   anything;
// - a secret of 1 to 3 characters is not redacted: it would hide pieces of
//   ordinary words and numbers throughout every record ("ab" in "table"), and
//   a value that short is no secret (it is guessed in at most 16 million
//   tries). unredactable_secret_names() names the variables that hold one, so
//   that refinery can say so;
// - a value that reads as a setting (looks_like_setting: true, off, 1...)
//   in a variable that only looks secret by its name (TOKENIZERS_PARALLELISM,
//   HF_HUB_DISABLE_TOKEN) is not taken for a secret at all.
class Redactor {
 public:
  static constexpr size_t kMinLength = 4;
  static constexpr std::string_view kMarker = "[REDACTED]";

  explicit Redactor(std::vector<std::string> secrets);

  // text with every occurrence of every secret replaced by kMarker; where
  // occurrences overlap or touch, their union becomes one marker.
  std::string redact(std::string_view text) const;

  const std::vector<std::string>& secrets() const { return secrets_; }

 private:
  std::vector<std::string> secrets_;  // at least kMinLength, distinct
};

// The values of the "NAME=VALUE" entries in env whose NAME looks like a secret
// (contains KEY, TOKEN, SECRET, PASSWORD, PASSWD, CREDENTIAL, AUTH or COOKIE,
// in any case) or is one of extra_names (a config's api_key_env). Non-empty
// values only, each once, in env's order; a value that looks like a setting is
// left out unless its variable is one of extra_names.
std::vector<std::string> secrets_from_environment(const std::vector<std::string>& env,
                                                  const std::vector<std::string>& extra_names);

// The names of the variables secrets_from_environment() takes whose values are
// too short to redact (shorter than Redactor::kMinLength, and not a number of
// one to three digits, which is a setting), in env's order.
std::vector<std::string> unredactable_secret_names(const std::vector<std::string>& env,
                                                   const std::vector<std::string>& extra_names);

// true, false, yes, no, on, off, none, null, auto, enabled, disabled (any case),
// or a number of one to three digits: what a switch or a count is set to.
bool looks_like_setting(std::string_view value);

// Moves this process's environment to the heap (getenv and setenv keep
// working) and zeroes the block the kernel shows as /proc/<pid>/environ, then
// marks the process not dumpable: a child that reads its parent's environ (a
// compiler told to #include it) finds nothing. Call first thing in main,
// before any thread starts.
void hide_environment_block();

}  // namespace base
