// Loud YAML decoding: every error names file:line:col, shows the offending
// line with a caret, and suggests the closest key for a misspelt one. A key
// given twice in one mapping is an error when the document is parsed.
//
// A Document owns the text it was parsed from, so that errors can quote it.
// Decoders take the Document and a node and return Result values; nothing
// here throws. A Document is immutable after load and safe to read from
// several threads.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace base::yaml {

class Document {
 public:
  static Result<Document> load_file(const std::string& path);
  static Result<Document> parse(const std::string& text, const std::string& display_name);

  const YAML::Node& root() const { return root_; }
  const std::string& name() const { return name_; }

  // "name:line:col: message" followed by the source line and a caret under col.
  Error error_at(const YAML::Node& node, const std::string& message) const;
  Error error_at(const YAML::Mark& mark, const std::string& message) const;

 private:
  std::string name_;
  std::vector<std::string> lines_;
  YAML::Node root_;
};

// Fails on the first key of `map` that is not in `allowed`, suggesting the
// closest allowed key. `what` names the map in the message ("input 'x'").
Status check_keys(const Document& doc, const YAML::Node& map, const std::vector<std::string>& allowed,
                  const std::string& what);

// Fails unless node is a map (sequence) — `what` names what was expected.
Status expect_map(const Document& doc, const YAML::Node& node, const std::string& what);
Status expect_sequence(const Document& doc, const YAML::Node& node, const std::string& what);

// The value under `key`, or an error pointing at `map` if it is missing.
Result<YAML::Node> require(const Document& doc, const YAML::Node& map, const std::string& key, const std::string& what);

// Scalar conversions with typed errors ("expected an integer for 'trials', got 'five'").
Result<std::string> as_string(const Document& doc, const YAML::Node& node, const std::string& key);
Result<int64_t> as_int(const Document& doc, const YAML::Node& node, const std::string& key);
Result<double> as_double(const Document& doc, const YAML::Node& node, const std::string& key);
// The same, range-checked: "'turns' must be between 1 and 100, got 4294967296".
// Non-finite numbers (.inf, .nan) are never accepted.
Result<int64_t> as_int_in(const Document& doc, const YAML::Node& node, const std::string& key, int64_t min,
                          int64_t max);
Result<double> as_double_in(const Document& doc, const YAML::Node& node, const std::string& key, double min,
                            double max);
Result<bool> as_bool(const Document& doc, const YAML::Node& node, const std::string& key);

// One of `choices`, with a suggestion when it is close to one.
Result<std::string> as_choice(const Document& doc, const YAML::Node& node, const std::string& key,
                              const std::vector<std::string>& choices);

}  // namespace base::yaml
