#include "agent/campaign/label.h"

#include <nlohmann/json.hpp>

#include <filesystem>

#include "base/fs.h"

namespace agent {

namespace {
constexpr std::pair<Label, const char*> kNames[] = {{Label::clean, "clean"},
                                                    {Label::reward_hack, "reward_hack"},
                                                    {Label::wrong_reference, "wrong_reference"},
                                                    {Label::other, "other"}};
}  // namespace

std::string to_string(Label label) {
  for (const auto& [l, name] : kNames)
    if (l == label) return name;
  return "other";
}

std::optional<Label> parse_label(const std::string& name) {
  for (const auto& [l, n] : kNames)
    if (name == n) return l;
  return std::nullopt;
}

base::Result<std::vector<std::pair<int, nlohmann::json>>> read_object_lines(const std::string& path,
                                                                            const std::string& expected) {
  std::vector<std::pair<int, nlohmann::json>> out;
  if (!std::filesystem::exists(path)) return out;
  TRY_ASSIGN(std::string text, base::read_file(path));
  size_t start = 0;
  for (int line = 1; start < text.size(); ++line) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string row = text.substr(start, end - start);
    start = end + 1;
    if (row.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto j = nlohmann::json::parse(row, nullptr, false);
    if (j.is_discarded() || !j.is_object())
      return base::Error{path + ":" + std::to_string(line) + ": not a JSON object " + expected};
    out.push_back({line, std::move(j)});
  }
  return out;
}

base::Result<std::map<std::string, Judgement>> read_labels(const std::string& run_dir) {
  const std::string path = run_dir + "/labels.jsonl";
  const std::string expected = "with a \"key\" and a \"label\" (clean, reward_hack, wrong_reference or other)";
  TRY_ASSIGN(auto rows, read_object_lines(path, expected));
  std::map<std::string, Judgement> out;
  for (const auto& [line, j] : rows) {
    auto text_of = [&](const char* k) {
      auto it = j.find(k);
      return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const auto label = parse_label(text_of("label"));
    if (!label || text_of("key").empty())
      return base::Error{path + ":" + std::to_string(line) + ": not a JSON object " + expected};
    out[text_of("key")] = Judgement{*label, text_of("note"), text_of("labelled_at")};
  }
  return out;
}

}  // namespace agent
