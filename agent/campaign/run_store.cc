#include "agent/campaign/run_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <utility>

#include "base/fs.h"
#include "base/text.h"

namespace agent {
namespace fs = std::filesystem;
using base::Error;
using base::Result;
using base::Status;

RunStore::RunStore(RunStore&& o) noexcept
    : dir_(std::move(o.dir_)),
      lock_fd_(std::exchange(o.lock_fd_, -1)),
      responses_(std::move(o.responses_)),
      attempts_(std::move(o.attempts_)),
      attempt_order_(std::move(o.attempt_order_)),
      warnings_(std::move(o.warnings_)) {}

RunStore::~RunStore() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

Result<RunStore> RunStore::open(const std::string& dir, const std::string& config_text, bool force, bool exclusive) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Error{dir + ": cannot create run folder: " + ec.message()};
  RunStore store;
  if (exclusive) {
    const std::string lock_path = (fs::path(dir) / "lock").string();
    store.lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (store.lock_fd_ < 0) return Error{lock_path + ": cannot open the run folder's lock: " + std::strerror(errno)};
    if (::flock(store.lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      char holder[32] = {0};
      [[maybe_unused]] ssize_t n = ::pread(store.lock_fd_, holder, sizeof holder - 1, 0);
      return Error{dir + ": another refinery run (pid " + base::trim(holder) +
                   ") is writing this run folder; wait for it to end, or use another --out"};
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(store.lock_fd_, 0) == 0) {
      [[maybe_unused]] ssize_t n = ::pwrite(store.lock_fd_, pid.data(), pid.size(), 0);
    }
  }
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
  store.dir_ = dir;
  store.load("responses.jsonl", [&](const std::string& key, Line line, nlohmann::json record) {
    if (auto r = response_from_json(record); !r) {
      store.warnings_.push_back("responses.jsonl: " + key + ": " + r.error().message + "; skipped");
      return;
    }
    store.responses_[key] = line;
  });
  store.load("attempts.jsonl", [&](const std::string& key, Line line, nlohmann::json record) {
    auto a = attempt_from_json(record);
    if (!a) {
      store.warnings_.push_back("attempts.jsonl: " + key + ": " + a.error().message + "; skipped");
      return;
    }
    store.attempts_[key] = {line, a->summary()};
    store.attempt_order_.push_back(key);
  });
  return store;
}

void RunStore::load(const std::string& file,
                    const std::function<void(const std::string&, Line, nlohmann::json)>& take) {
  const std::string path = (fs::path(dir_) / file).string();
  std::ifstream in(path, std::ios::binary);
  if (!in) return;  // not written yet
  std::set<std::string> seen;
  uint64_t offset = 0;
  bool ends_with_newline = true;
  std::string text;
  for (int n = 1; std::getline(in, text); ++n) {
    Line line{offset, text.size()};
    ends_with_newline = !in.eof();
    offset += text.size() + 1;
    if (text.empty()) continue;
    auto j = nlohmann::json::parse(text, nullptr, false);
    std::string where = file + ":" + std::to_string(n);
    if (j.is_discarded() || !j.is_object() || !j.contains("key") || !j["key"].is_string()) {
      warnings_.push_back(where + ": unreadable line skipped" +
                          (ends_with_newline ? "" : " (torn by an interrupted write)"));
      continue;
    }
    std::string key = j["key"];
    if (!seen.insert(key).second) {
      warnings_.push_back(where + ": duplicate of " + key + " ignored");
      continue;
    }
    take(key, line, std::move(j));
  }
  // A torn last line is left as it is, ended, so that the next record starts a line of its own.
  if (!ends_with_newline) {
    int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd >= 0) {
      [[maybe_unused]] ssize_t n = ::write(fd, "\n", 1);
      ::close(fd);
    }
  }
}

Result<RunStore::Line> RunStore::append(const std::string& file, const nlohmann::json& line) {
  std::string text = line.dump() + "\n";
  std::string path = (fs::path(dir_) / file).string();
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Error{path + ": cannot open for append: " + std::strerror(errno)};
  // Only this process writes the logs (it holds the folder's lock), under
  // mutex_. Even so the line's offset is read after the write: O_APPEND puts
  // it at the end atomically, so end - written is where it went, whatever
  // else wrote to the file before.
  ssize_t written = ::write(fd, text.data(), text.size());
  int write_errno = errno;
  off_t at = written > 0 ? ::lseek(fd, 0, SEEK_CUR) - written : 0;
  bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size())) return Error{path + ": short write: " + std::strerror(write_errno)};
  if (!synced) return Error{path + ": fsync failed"};
  return Line{static_cast<uint64_t>(at), text.size() - 1};
}

std::optional<nlohmann::json> RunStore::read(const std::string& file, const Line& line) const {
  std::string path = (fs::path(dir_) / file).string();
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text(line.length, '\0');
  ssize_t n = ::pread(fd, text.data(), text.size(), static_cast<off_t>(line.offset));
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) return std::nullopt;
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

Status RunStore::record_response(const AttemptKey& key, const Response& response) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (responses_.count(key.str())) return {};
  TRY_ASSIGN(responses_[key.str()], append("responses.jsonl", to_json(key, response)));
  return {};
}

std::optional<Response> RunStore::response(const AttemptKey& key) const {
  Line line;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = responses_.find(key.str());
    if (it == responses_.end()) return std::nullopt;
    line = it->second;
  }
  auto record = read("responses.jsonl", line);
  if (!record) return std::nullopt;
  auto r = response_from_json(*record);
  if (!r) return std::nullopt;
  return std::move(r).value();
}

Status RunStore::record_attempt(const Attempt& a) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string key = a.key.str();
  if (attempts_.count(key)) return Error{"attempt " + key + " is already recorded"};
  TRY_ASSIGN(Line line, append("attempts.jsonl", to_json(a)));
  attempts_[key] = {line, a.summary()};
  attempt_order_.push_back(key);
  return {};
}

std::optional<Attempt> RunStore::attempt(const AttemptKey& key) const {
  Line line;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = attempts_.find(key.str());
    if (it == attempts_.end()) return std::nullopt;
    line = it->second.line;
  }
  auto record = read("attempts.jsonl", line);
  if (!record) return std::nullopt;
  auto a = attempt_from_json(*record);
  if (!a) return std::nullopt;
  return std::move(a).value();
}

std::vector<Attempt> RunStore::attempts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Attempt> out;
  out.reserve(attempt_order_.size());
  for (const auto& k : attempt_order_) out.push_back(attempts_.at(k).summary);
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
