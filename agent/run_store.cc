#include "agent/run_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/fs.h"
#include "base/text.h"

namespace agent {
namespace fs = std::filesystem;
using base::Error;
using base::Result;
using base::Status;

std::string AttemptKey::str() const {
  return model + "/" + strategy + "/" + problem + "/s" + std::to_string(sample) + "/t" + std::to_string(turn);
}

RunStore::RunStore(RunStore&& o) noexcept
    : dir_(std::move(o.dir_)),
      responses_(std::move(o.responses_)),
      attempts_(std::move(o.attempts_)),
      attempt_order_(std::move(o.attempt_order_)),
      warnings_(std::move(o.warnings_)) {}

Result<RunStore> RunStore::open(const std::string& dir, const std::string& config_text, bool force) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir + ": cannot create run folder: " + ec.message()};
  const std::string config_path = (fs::path(dir) / "config.yaml").string();
  if (fs::exists(config_path)) {
    TRY_ASSIGN(std::string frozen, base::read_file(config_path));
    if (frozen != config_text) {
      if (!force)
        return Error{dir + ": this run folder was started with another config (" + config_path +
                     "); use another --out, or --force to continue it with the new one"};
      int n = 1;
      while (fs::exists(config_path + "." + std::to_string(n))) ++n;
      fs::rename(config_path, config_path + "." + std::to_string(n), ec);
      TRY(base::write_file_atomic(config_path, config_text));
    }
  } else {
    TRY(base::write_file_atomic(config_path, config_text));
  }
  RunStore store;
  store.dir_ = dir;
  store.load("responses.jsonl", store.responses_, nullptr);
  store.load("attempts.jsonl", store.attempts_, &store.attempt_order_);
  return store;
}

void RunStore::load(const std::string& file, std::map<std::string, nlohmann::json>& into,
                    std::vector<std::string>* order) {
  auto text = base::read_file((fs::path(dir_) / file).string());
  if (!text) return;  // not written yet
  auto lines = base::split(*text, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    auto j = nlohmann::json::parse(lines[i], nullptr, false);
    std::string where = file + ":" + std::to_string(i + 1);
    if (j.is_discarded() || !j.is_object() || !j.contains("key") || !j["key"].is_string()) {
      warnings_.push_back(where + ": unreadable line skipped" +
                          (i + 1 == lines.size() ? " (torn by an interrupted write)" : ""));
      continue;
    }
    std::string key = j["key"];
    if (into.count(key)) {
      warnings_.push_back(where + ": duplicate of " + key + " ignored");
      continue;
    }
    into[key] = j;
    if (order) order->push_back(key);
  }
}

Status RunStore::append(const std::string& file, const nlohmann::json& line) {
  std::string text = line.dump() + "\n";
  std::string path = (fs::path(dir_) / file).string();
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Error{path + ": cannot open for append: " + std::strerror(errno)};
  ssize_t written = ::write(fd, text.data(), text.size());
  int write_errno = errno;
  bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size()))
    return Error{path + ": short write: " + std::strerror(write_errno)};
  if (!synced) return Error{path + ": fsync failed"};
  return {};
}

Status RunStore::record_response(const AttemptKey& key, const nlohmann::json& response) {
  std::lock_guard<std::mutex> lock(mutex_);
  nlohmann::json line = response;
  line["key"] = key.str();
  if (responses_.count(key.str())) return {};
  TRY(append("responses.jsonl", line));
  responses_[key.str()] = line;
  return {};
}

std::optional<nlohmann::json> RunStore::find(const std::map<std::string, nlohmann::json>& in,
                                              const AttemptKey& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = in.find(key.str());
  if (it == in.end()) return std::nullopt;
  return it->second;
}

std::optional<nlohmann::json> RunStore::response(const AttemptKey& key) const { return find(responses_, key); }

Status RunStore::record_attempt(const AttemptKey& key, nlohmann::json record) {
  std::lock_guard<std::mutex> lock(mutex_);
  record["key"] = key.str();
  record["model"] = key.model;
  record["strategy"] = key.strategy;
  record["problem"] = key.problem;
  record["sample"] = key.sample;
  record["turn"] = key.turn;
  if (attempts_.count(key.str())) return Error{"attempt " + key.str() + " is already recorded"};
  TRY(append("attempts.jsonl", record));
  attempts_[key.str()] = record;
  attempt_order_.push_back(key.str());
  return {};
}

std::optional<nlohmann::json> RunStore::attempt(const AttemptKey& key) const { return find(attempts_, key); }

std::vector<nlohmann::json> RunStore::attempts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<nlohmann::json> out;
  for (const auto& k : attempt_order_) out.push_back(attempts_.at(k));
  return out;
}

Result<std::string> RunStore::artifact_dir(const AttemptKey& key) const {
  fs::path p = fs::path(dir_) / "attempts" / key.model / key.strategy / key.problem /
               ("s" + std::to_string(key.sample)) / ("t" + std::to_string(key.turn));
  std::error_code ec;
  fs::create_directories(p, ec);
  if (ec) return Error{p.string() + ": cannot create: " + ec.message()};
  return p.string();
}

}  // namespace agent
