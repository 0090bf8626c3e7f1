#include "agent/model/replay.h"

#include <filesystem>

#include "base/fs.h"
#include "base/text.h"

namespace agent {
namespace fs = std::filesystem;

base::Result<Replay> Replay::load(const std::string& source) {
  std::string path = fs::is_directory(source) ? (fs::path(source) / "responses.jsonl").string() : source;
  TRY_ASSIGN(std::string text, base::read_file(path));
  Replay r;
  r.source_ = path;
  auto lines = base::split(text, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    if (base::trim(lines[i]).empty()) continue;
    auto j = nlohmann::json::parse(lines[i], nullptr, false);
    if (j.is_discarded() || !j.contains("key") || !j["key"].is_string())
      return base::Error{path + ":" + std::to_string(i + 1) + ": not a JSON object with a \"key\""};
    r.lines_.push_back(std::move(j));
  }
  return r;
}

base::Result<Completion> Replay::answer(const ModelConfig& model, const AttemptKey& key) const {
  const std::string tail = "/" + key.problem + "/s" + std::to_string(key.sample) + "/t" + std::to_string(key.turn);
  for (const auto& line : lines_) {
    std::string k = line["key"];
    if (!base::ends_with(k, tail)) continue;
    if (!model.model.empty() && !base::starts_with(k, model.model + "/")) continue;
    if (line.contains("error")) continue;  // a recorded failure is no response to replay
    Completion c;
    c.requests = 0;
    c.response.text = line.value("text", "");
    c.response.reasoning = line.value("reasoning", "");
    c.response.finish_reason = line.value("finish_reason", "stop");
    return c;
  }
  return base::Error{"replay: " + source_ + " has no response for " + key.problem + " sample " +
                     std::to_string(key.sample) + " turn " + std::to_string(key.turn) +
                     (model.model.empty() ? "" : " of model " + model.model)};
}

}  // namespace agent
