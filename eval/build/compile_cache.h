// The compile cache's bookkeeping (the compile service, compiler.h, decides
// what goes in it): which entries are in use, how big the cache is, and which
// entries go when it is too big, as ccache does it.
//
// An entry is a folder objects/<kk>/<key> (a batch's: objects/batch/<key>)
// that appears whole, by rename, and is never changed after. A process that
// uses an entry holds a lease on it: a shared flock(2) on the entry's folder,
// taken before the entry is read (for an entry stored now, before its
// temporary folder is renamed into place) and kept while its library may be
// loaded: the CompiledLibrary holds it, so an evaluation holds it until it
// ends. Taking a lease records the use (the folder's mtime).
//
// Eviction runs after a store, when objects/ holds more than max_bytes:
// entries go least recently used first until it holds at most 90% of
// max_bytes. Measuring objects/ is a walk of every entry (0.45 s for 20,000
// entries on a loaded 2-core machine), so a store walks it only when this
// process's own count (the last walk's total and what it stored since) says
// the cache may be over the limit, or when the last walk is ten minutes old:
// what other processes sharing the cache store meanwhile can take it past the
// limit for at most that long. It takes an entry's exclusive lock without waiting and leaves an
// entry it cannot lock alone, so it never removes an entry that this or
// another process is about to load; it renames an entry out of objects/
// before deleting it, so a reader sees a whole entry or none. An entry larger
// than max_object_bytes goes first, and is never stored. One process evicts at
// a time (a lock file in the cache); the others skip it. The precompiled
// header and refinery's headers (pch/, include/: one of each per toolchain)
// are not counted and never evicted: every compile of this build includes
// them.
//
// Thread-safe; several processes may share one cache folder.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "base/result.h"

namespace eval {

// The cache is private to its owner: folders 0700, files 0600, whatever the umask.
inline constexpr unsigned kCacheFolderMode = 0700, kCacheFileMode = 0600;

struct CacheLimits {
  uint64_t max_bytes = 5ull << 30;           // objects/ in all; 0 = no limit
  uint64_t max_object_bytes = 512ull << 20;  // one entry; a larger one is not stored
};

// A shared lock on one entry's folder, released when the last copy goes.
class CacheLease {
 public:
  explicit CacheLease(int fd) : fd_(fd) {}
  ~CacheLease();
  CacheLease(const CacheLease&) = delete;
  CacheLease& operator=(const CacheLease&) = delete;

 private:
  int fd_;
};
using Lease = std::shared_ptr<const CacheLease>;

// What one eviction did.
struct Eviction {
  bool ran = false;  // false: another process was evicting
  uint64_t bytes_before = 0, bytes_after = 0;
  int evicted = 0;            // entries removed
  int in_use = 0;             // entries that would have gone but were leased
  int stale_temporaries = 0;  // leftover temporary folders removed
};

class CompileCache {
 public:
  // `root`: the cache folder (its objects/ and tmp/ are the service's to make).
  CompileCache(std::string root, CacheLimits limits);

  // The entry at `dir`, leased and its use recorded; null when there is none
  // (or it was evicted while the lease was being taken).
  Lease lease(const std::string& dir) const;

  // Moves the complete folder `tmp` into place at `entry` with a lease taken
  // first. When another process stored the same entry first, `tmp` is
  // removed and that entry is leased instead (`ours` false). An Error when
  // neither works.
  struct Stored {
    Lease lease;
    bool ours = true;
  };
  base::Result<Stored> store(const std::string& tmp, const std::string& entry) const;

  // Removes the entry at `dir` whether or not it is leased (a damaged one:
  // nobody can use it): renamed out of objects/, then deleted.
  void remove(const std::string& dir) const;

  // Why the folder `dir` may not be stored (it is larger than
  // max_object_bytes: "the compile's output is 1.0 GiB, more than the 512.0
  // MiB the cache keeps for one compile"), or nullopt.
  std::optional<std::string> oversize(const std::string& dir) const;

  // After storing `entry`: evict(), when due (above); `ran` false when not.
  Eviction after_store(const std::string& entry, std::chrono::system_clock::time_point now) const;

  // Keeps objects/ within the limits (above); also removes temporary folders
  // left in tmp/ by compiles that died more than a day before `now`.
  Eviction evict(std::chrono::system_clock::time_point now) const;

  // The bytes a folder takes: for each file, the larger of its size and the
  // blocks it occupies.
  static uint64_t folder_bytes(const std::string& dir);

  const CacheLimits& limits() const { return limits_; }

 private:
  std::string root_;
  CacheLimits limits_;
  // This process's view of objects/ since its last walk.
  struct Count {
    bool walked = false;
    std::chrono::system_clock::time_point at;
    uint64_t total = 0, stored_since = 0;
  };
  mutable std::mutex mutex_;  // guards count_
  mutable Count count_;
};

}  // namespace eval
