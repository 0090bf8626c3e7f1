#include "eval/build/compile_cache.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "base/fs.h"
#include "base/text.h"

namespace eval {
namespace fs = std::filesystem;
using base::Error;
using base::Result;

namespace {

// How long a folder in tmp/ may sit untouched before it is taken for the
// leftover of a compile that died (a batch of many references may run for
// hours; none for a day).
constexpr auto kStaleTemporary = std::chrono::hours(24);
// Eviction, once it starts, goes down to this share of max_bytes, so that it
// does not run again at the next store.
constexpr uint64_t kEvictToPercent = 90;
// A store walks objects/ at least this often, whatever this process's count says.
constexpr auto kWalkAtLeastEvery = std::chrono::minutes(10);

int open_folder(const std::string& dir) {
  return open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

// Whether fd is still the folder at dir (not renamed away meanwhile).
bool still_at(int fd, const std::string& dir) {
  struct stat held {
  }, named{};
  return fstat(fd, &held) == 0 && stat(dir.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
         held.st_ino == named.st_ino;
}

std::chrono::system_clock::time_point modified(const struct stat& st) {
  return std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
      std::chrono::seconds(st.st_mtim.tv_sec) + std::chrono::nanoseconds(st.st_mtim.tv_nsec)));
}

}  // namespace

CacheLease::~CacheLease() {
  close(fd_);
}

CompileCache::CompileCache(std::string root, CacheLimits limits) : root_(std::move(root)), limits_(limits) {}

uint64_t CompileCache::folder_bytes(const std::string& dir) {
  uint64_t bytes = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    struct stat st {};
    if (lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    bytes += std::max<uint64_t>(static_cast<uint64_t>(st.st_size), static_cast<uint64_t>(st.st_blocks) * 512);
  }
  return bytes;
}

Lease CompileCache::lease(const std::string& dir) const {
  int fd = open_folder(dir);
  if (fd < 0) return nullptr;
  // Waits only while an eviction holds the folder, which it does for one rename.
  while (flock(fd, LOCK_SH) != 0 && errno == EINTR) {
  }
  if (!still_at(fd, dir)) {  // evicted meanwhile: the folder held is out of objects/
    close(fd);
    return nullptr;
  }
  futimens(fd, nullptr);  // the use, for least-recently-used eviction
  return std::make_shared<const CacheLease>(fd);
}

Result<CompileCache::Stored> CompileCache::store(const std::string& tmp, const std::string& entry) const {
  int fd = open_folder(tmp);
  if (fd < 0) return Error{tmp + ": cannot open: " + std::strerror(errno)};
  flock(fd, LOCK_SH);  // a folder nobody else knows of yet: never waits
  auto held = std::make_shared<const CacheLease>(fd);
  TRY(base::make_dirs(fs::path(entry).parent_path().string(), kCacheFolderMode));
  if (::rename(tmp.c_str(), entry.c_str()) == 0) {
    futimens(fd, nullptr);
    return Stored{std::move(held), true};
  }
  const int why = errno;
  held.reset();
  std::error_code ec;
  fs::remove_all(tmp, ec);
  // Another process stored the same key first: use that one.
  if (why == EEXIST || why == ENOTEMPTY)
    if (Lease existing = lease(entry)) return Stored{std::move(existing), false};
  return Error{"cannot store " + entry + ": " + std::strerror(why)};
}

void CompileCache::remove(const std::string& dir) const {
  std::error_code ec;
  std::string aside = (fs::path(root_) / "tmp" / "evicted-XXXXXX").string();
  const bool made = mkdtemp(aside.data()) != nullptr;
  // A folder renamed over the empty one made for it: out of objects/ at once.
  if (made && ::rename(dir.c_str(), aside.c_str()) == 0) {
    fs::remove_all(aside, ec);
    return;
  }
  if (made) fs::remove(aside, ec);
  fs::remove_all(dir, ec);
}

std::optional<std::string> CompileCache::oversize(const std::string& dir) const {
  const uint64_t bytes = folder_bytes(dir);
  if (limits_.max_object_bytes == 0 || bytes <= limits_.max_object_bytes) return std::nullopt;
  return "the compile's output is " + base::format_bytes(static_cast<double>(bytes)) + ", more than the " +
         base::format_bytes(static_cast<double>(limits_.max_object_bytes)) + " the cache keeps for one compile";
}

Eviction CompileCache::after_store(const std::string& entry, std::chrono::system_clock::time_point now) const {
  const uint64_t bytes = folder_bytes(entry);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    count_.stored_since += bytes;
    const bool due = !count_.walked || now - count_.at >= kWalkAtLeastEvery ||
                     (limits_.max_bytes > 0 && count_.total + count_.stored_since > limits_.max_bytes);
    if (!due) return {};
  }
  Eviction e = evict(now);
  if (e.ran) {
    std::lock_guard<std::mutex> lock(mutex_);
    count_ = {true, now, e.bytes_after, 0};
  }
  return e;
}

Eviction CompileCache::evict(std::chrono::system_clock::time_point now) const {
  Eviction e;
  const std::string lock_path = (fs::path(root_) / "evict.lock").string();
  int lock = open(lock_path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, kCacheFileMode);
  if (lock < 0) return e;
  if (flock(lock, LOCK_EX | LOCK_NB) != 0) {  // another process is at it
    close(lock);
    return e;
  }
  e.ran = true;
  std::error_code ec;
  // Leftovers in tmp/: folders set aside by remove() (whose deletion was cut
  // short), and compiles that died.
  for (fs::directory_iterator it(fs::path(root_) / "tmp", ec), end; !ec && it != end; it.increment(ec)) {
    struct stat st {};
    if (lstat(it->path().c_str(), &st) != 0) continue;
    const bool aside = base::starts_with(it->path().filename().string(), "evicted-");
    if (aside || now - modified(st) > kStaleTemporary) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
      e.stale_temporaries += !aside;
    }
  }

  struct Entry {
    std::string path;
    std::chrono::system_clock::time_point used;
    uint64_t bytes = 0;
    bool oversize = false;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  ec.clear();
  for (fs::directory_iterator shard(fs::path(root_) / "objects", ec), end; !ec && shard != end; shard.increment(ec)) {
    std::error_code inner;
    for (fs::directory_iterator it(shard->path(), inner), stop; !inner && it != stop; it.increment(inner)) {
      struct stat st {};
      if (lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
      Entry entry{it->path().string(), modified(st), folder_bytes(it->path().string())};
      entry.oversize = limits_.max_object_bytes > 0 && entry.bytes > limits_.max_object_bytes;
      total += entry.bytes;
      entries.push_back(std::move(entry));
    }
  }
  e.bytes_before = total;
  const bool over_limit = limits_.max_bytes > 0 && total > limits_.max_bytes;
  const uint64_t target = limits_.max_bytes / 100 * kEvictToPercent;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.oversize != b.oversize) return a.oversize;
    return a.used != b.used ? a.used < b.used : a.path < b.path;
  });
  for (const Entry& entry : entries) {
    if (!entry.oversize && (!over_limit || total <= target)) break;
    int fd = open_folder(entry.path);
    if (fd < 0) continue;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 || !still_at(fd, entry.path)) {
      ++e.in_use;
      close(fd);
      continue;
    }
    remove(entry.path);  // renamed out of objects/ while locked: a reader waiting on the lock finds it gone
    close(fd);
    total -= std::min(total, entry.bytes);
    ++e.evicted;
  }
  e.bytes_after = total;
  close(lock);
  return e;
}

}  // namespace eval
