#include "base/yaml_decode.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include "base/text.h"

namespace base::yaml {

namespace {

// yaml-cpp keeps every pair of a mapping and looks up the first: a key given
// twice would silently lose its second value. The second one is an error.
Status check_duplicate_keys(const Document& doc, const YAML::Node& node) {
  if (node.IsMap()) {
    std::vector<std::pair<std::string, YAML::Mark>> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (it->first.IsScalar()) {
        const std::string key = it->first.Scalar();
        for (const auto& [k, mark] : seen)
          if (k == key)
            return doc.error_at(
                it->first, "duplicate key '" + key + "' (first given on line " + std::to_string(mark.line + 1) + ")");
        seen.emplace_back(key, it->first.Mark());
      }
      TRY(check_duplicate_keys(doc, it->second));
    }
  } else if (node.IsSequence()) {
    for (const auto& item : node) TRY(check_duplicate_keys(doc, item));
  }
  return {};
}

}  // namespace

Result<Document> Document::parse(const std::string& text, const std::string& display_name) {
  Document doc;
  doc.name_ = display_name;
  doc.lines_ = split(text, '\n');
  try {
    doc.root_ = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return doc.error_at(e.mark, e.msg);
  }
  TRY(check_duplicate_keys(doc, doc.root_));
  return doc;
}

Result<Document> Document::load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open file"};
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path);
}

Error Document::error_at(const YAML::Mark& mark, const std::string& message) const {
  if (mark.line < 0) return Error{name_ + ": " + message};
  std::string out =
      name_ + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1) + ": " + message;
  if (static_cast<size_t>(mark.line) < lines_.size()) {
    std::string line = lines_[mark.line];
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out += "\n    " + line + "\n    " + std::string(mark.column, ' ') + "^";
  }
  return Error{out};
}

Error Document::error_at(const YAML::Node& node, const std::string& message) const {
  return error_at(node.Mark(), message);
}

Status check_keys(const Document& doc, const YAML::Node& map, const std::vector<std::string>& allowed,
                  const std::string& what) {
  for (auto it = map.begin(); it != map.end(); ++it) {
    const std::string key = it->first.Scalar();
    bool known = false;
    for (const auto& a : allowed) known = known || a == key;
    if (known) continue;
    std::string message = "unknown key '" + key + "' in " + what;
    if (auto guess = closest_match(key, allowed))
      message += " (did you mean '" + *guess + "'?)";
    else
      message += " (allowed: " + join(allowed, ", ") + ")";
    return doc.error_at(it->first, message);
  }
  return {};
}

Status expect_map(const Document& doc, const YAML::Node& node, const std::string& what) {
  if (node.IsMap()) return {};
  return doc.error_at(node, "expected " + what + " to be a mapping of keys to values");
}

Status expect_sequence(const Document& doc, const YAML::Node& node, const std::string& what) {
  if (node.IsSequence()) return {};
  return doc.error_at(node, "expected " + what + " to be a list");
}

Result<YAML::Node> require(const Document& doc, const YAML::Node& map, const std::string& key,
                           const std::string& what) {
  YAML::Node value = map[key];
  if (!value.IsDefined() || value.IsNull()) return doc.error_at(map, "missing required key '" + key + "' in " + what);
  return value;
}

namespace {

template <class T>
Result<T> convert(const Document& doc, const YAML::Node& node, const std::string& key, const char* expected) {
  if (!node.IsScalar()) return doc.error_at(node, std::string("expected ") + expected + " for '" + key + "'");
  try {
    return node.as<T>();
  } catch (const YAML::Exception&) {
    return doc.error_at(node, std::string("expected ") + expected + " for '" + key + "', got '" + node.Scalar() + "'");
  }
}

}  // namespace

Result<std::string> as_string(const Document& doc, const YAML::Node& node, const std::string& key) {
  return convert<std::string>(doc, node, key, "a string");
}
Result<int64_t> as_int(const Document& doc, const YAML::Node& node, const std::string& key) {
  return convert<int64_t>(doc, node, key, "an integer");
}
Result<double> as_double(const Document& doc, const YAML::Node& node, const std::string& key) {
  TRY_ASSIGN(double v, convert<double>(doc, node, key, "a number"));
  if (!std::isfinite(v))
    return doc.error_at(node, "expected a finite number for '" + key + "', got '" + node.Scalar() + "'");
  return v;
}

Result<int64_t> as_int_in(const Document& doc, const YAML::Node& node, const std::string& key, int64_t min,
                          int64_t max) {
  const std::string range = "'" + key + "' must be between " + std::to_string(min) + " and " + std::to_string(max);
  auto v = as_int(doc, node, key);
  if (!v) {
    // Digits that do not fit in 64 bits are out of range, not "not an integer".
    const std::string& text = node.IsScalar() ? node.Scalar() : std::string();
    size_t i = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
    const bool digits = i < text.size() && std::all_of(text.begin() + static_cast<long>(i), text.end(),
                                                       [](unsigned char c) { return std::isdigit(c) != 0; });
    if (digits) return doc.error_at(node, range + ", got " + text);
    return v.error();
  }
  if (*v < min || *v > max) return doc.error_at(node, range + ", got " + std::to_string(*v));
  return *v;
}

Result<double> as_double_in(const Document& doc, const YAML::Node& node, const std::string& key, double min,
                            double max) {
  TRY_ASSIGN(double v, as_double(doc, node, key));
  if (v < min || v > max)
    return doc.error_at(node, "'" + key + "' must be between " + format_number(min) + " and " + format_number(max) +
                                  ", got " + node.Scalar());
  return v;
}
Result<bool> as_bool(const Document& doc, const YAML::Node& node, const std::string& key) {
  return convert<bool>(doc, node, key, "true or false");
}

Result<std::string> as_choice(const Document& doc, const YAML::Node& node, const std::string& key,
                              const std::vector<std::string>& choices) {
  TRY_ASSIGN(std::string value, as_string(doc, node, key));
  for (const auto& c : choices)
    if (c == value) return value;
  std::string message = "invalid value '" + value + "' for '" + key + "'";
  if (auto guess = closest_match(value, choices))
    message += " (did you mean '" + *guess + "'?)";
  else
    message += " (expected one of: " + join(choices, ", ") + ")";
  return doc.error_at(node, message);
}

}  // namespace base::yaml
