#include "base/cgroup.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>
#include <vector>

#include "base/fs.h"
#include "base/text.h"

namespace base {
namespace {

bool has(const std::vector<std::string>& words, const std::string& word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// `rel` (a cgroup path as /proc/self/cgroup gives it) under the mount whose
// root is `root` at `point`; empty when it is not under that root.
std::string under_mount(const Mount& m, const std::string& rel) {
  std::string tail;
  if (m.root == "/")
    tail = rel;
  else if (rel == m.root)
    tail = "";
  else if (starts_with(rel, m.root + "/"))
    tail = rel.substr(m.root.size());
  else
    return "";
  std::string path = m.point + (tail == "/" ? "" : tail);
  return path;
}

Status write_text(const std::string& path, const std::string& text) {
  int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Error{path + ": cannot open: " + std::strerror(errno)};
  ssize_t n = write(fd, text.data(), text.size());
  int e = errno;
  close(fd);
  if (n != static_cast<ssize_t>(text.size())) return Error{path + ": cannot write '" + text + "': " + std::strerror(e)};
  return {};
}

// The number after `key` in a "key value" file (memory.events, memory.oom_control).
uint64_t keyed_value(const std::string& path, const std::string& key) {
  auto text = read_file(path);
  if (!text) return 0;
  for (const auto& line : split(*text, '\n')) {
    auto w = words_of(line);
    if (w.size() == 2 && w[0] == key) return std::strtoull(w[1].c_str(), nullptr, 10);
  }
  return 0;
}

uint64_t number_in(const std::string& path) {
  auto text = read_file(path);
  if (!text) return 0;
  const std::string t = trim(*text);
  if (t == "max") return UINT64_MAX;
  return std::strtoull(t.c_str(), nullptr, 10);
}

bool exists(const std::string& path) {
  return access(path.c_str(), F_OK) == 0;
}

}  // namespace

CgroupParent parse_cgroup_parent(const std::string& proc_self_cgroup, const std::string& mountinfo) {
  std::string v1, v2;
  bool in_v2 = false;
  for (const auto& line : split(proc_self_cgroup, '\n')) {
    auto first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
    if (line.substr(0, first) == "0" && controllers.empty()) {
      v2 = path;
      in_v2 = true;
    } else if (has(split(controllers, ','), "memory")) {
      v1 = path;
    }
  }
  const auto mounts = parse_mountinfo(mountinfo);
  CgroupParent out;
  if (!v1.empty()) {
    for (const auto& m : mounts)
      if (m.fstype == "cgroup" && has(m.super_options, "memory")) {
        out.path = under_mount(m, v1);
        out.version = 1;
        if (out.path.empty())
          out.why_not = "cgroup v1: this process's memory cgroup " + v1 + " is outside the mount at " + m.point;
        return out;
      }
  }
  if (in_v2) {
    for (const auto& m : mounts)
      if (m.fstype == "cgroup2") {
        out.path = under_mount(m, v2);
        out.version = 2;
        if (out.path.empty())
          out.why_not = "cgroup v2: this process's cgroup " + v2 + " is outside the mount at " + m.point;
        return out;
      }
  }
  out.why_not = "no memory cgroup hierarchy is mounted here";
  return out;
}

CgroupParent find_cgroup_parent() {
  auto cgroup = read_file("/proc/self/cgroup");
  auto mountinfo = read_file("/proc/self/mountinfo");
  if (!cgroup || !mountinfo) return {"", 0, "cannot read /proc/self/cgroup or /proc/self/mountinfo"};
  CgroupParent p = parse_cgroup_parent(*cgroup, *mountinfo);
  if (p.path.empty()) return p;
  auto refuse = [&](const std::string& why) {
    p.why_not = "cgroup v" + std::to_string(p.version) + ": " + why;
    p.path.clear();
    return p;
  };
  if (access(p.path.c_str(), W_OK) != 0) return refuse(p.path + " is not writable here (" + std::strerror(errno) + ")");
  if (p.version == 1) return p;
  auto controllers = read_file(p.path + "/cgroup.controllers");
  if (!controllers || !has(words_of(*controllers), "memory"))
    return refuse("the memory controller is not given to " + p.path + " by its parent");
  auto subtree = read_file(p.path + "/cgroup.subtree_control");
  if (subtree && has(words_of(*subtree), "memory")) return p;
  // A cgroup with processes cannot hand the controller down; one whose only
  // process is this one can, once this process has moved into a leaf of it.
  auto procs = read_file(p.path + "/cgroup.procs");
  auto pids = procs ? words_of(*procs) : std::vector<std::string>{};
  const std::string self = std::to_string(getpid());
  if (pids.size() != 1 || pids[0] != self)
    return refuse(p.path + " holds " + std::to_string(pids.size() - has(pids, self)) +
                  " other processes, so its memory controller cannot be given to child cgroups; run refinery in "
                  "a cgroup of its own with memory delegated (systemd-run --scope -p Delegate=yes ...)");
  const std::string leaf = p.path + "/refinery";
  if (mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST)
    return refuse("cannot make " + leaf + ": " + std::strerror(errno));
  if (auto moved = write_text(leaf + "/cgroup.procs", self); !moved) return refuse(moved.error().message);
  if (auto enabled = write_text(p.path + "/cgroup.subtree_control", "+memory"); !enabled)
    return refuse(enabled.error().message);
  return p;
}

const CgroupParent& cgroup_parent() {
  static const CgroupParent parent = [] {  // a thread-safe initialisation
    CgroupParent p = find_cgroup_parent();
    if (!p.path.empty()) remove_stale_cgroups(p);
    return p;
  }();
  return parent;
}

int remove_stale_cgroups(const CgroupParent& parent) {
  if (parent.path.empty()) return 0;
  std::error_code ec;
  int removed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(parent.path, ec)) {
    const std::string name = entry.path().filename().string();
    std::string rest;
    for (const char* prefix : {"refinery-runner-", "refinery-compile-"})
      if (name.starts_with(prefix)) rest = name.substr(std::strlen(prefix));
    // PID-XXXXXX: the maker's process ID, then mkdtemp's six characters.
    const size_t dash = rest.find('-');
    if (dash == std::string::npos || dash == 0 || rest.size() - dash != 7 ||
        !std::all_of(rest.begin(), rest.begin() + static_cast<long>(dash), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    const pid_t maker = static_cast<pid_t>(std::atol(rest.substr(0, dash).c_str()));
    if (maker <= 0 || kill(maker, 0) == 0 || errno != ESRCH) continue;  // its refinery lives, or may
    if (rmdir(entry.path().c_str()) == 0) ++removed;                    // EBUSY: a process is still in it
  }
  return removed;
}

Result<std::unique_ptr<MemoryCgroup>> MemoryCgroup::create(const CgroupParent& parent, const std::string& prefix,
                                                           uint64_t limit_bytes) {
  if (parent.path.empty()) return Error{parent.why_not.empty() ? "no cgroup parent" : parent.why_not};
  std::string dir = parent.path + "/" + prefix + "-XXXXXX";
  if (!mkdtemp(dir.data())) return Error{"cannot make a cgroup under " + parent.path + ": " + std::strerror(errno)};
  auto cgroup = std::unique_ptr<MemoryCgroup>(new MemoryCgroup(dir, parent.version, true));
  const std::string limit = std::to_string(limit_bytes);
  if (parent.version == 2) {
    TRY(write_text(dir + "/memory.max", limit));
    // No swap: the cap is on memory, not on memory that can be pushed out.
    if (exists(dir + "/memory.swap.max")) TRY(write_text(dir + "/memory.swap.max", "0"));
    // An OOM in it ends all of it, not one thread group of several.
    if (exists(dir + "/memory.oom.group")) (void)write_text(dir + "/memory.oom.group", "1");
  } else {
    TRY(write_text(dir + "/memory.limit_in_bytes", limit));
    if (exists(dir + "/memory.memsw.limit_in_bytes")) TRY(write_text(dir + "/memory.memsw.limit_in_bytes", limit));
  }
  return cgroup;
}

Result<std::unique_ptr<MemoryCgroup>> MemoryCgroup::join(const std::string& path, int version) {
  if (version != 1 && version != 2) return Error{"cgroup " + path + ": version " + std::to_string(version) + "?"};
  if (!exists(path + "/cgroup.procs")) return Error{"cgroup " + path + " is not there"};
  return std::unique_ptr<MemoryCgroup>(new MemoryCgroup(path, version, false));
}

MemoryCgroup::~MemoryCgroup() {
  if (!owned_) return;
  // Its processes are ending (the runner dies with the judge); what is left is killed.
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (rmdir(path_.c_str()) == 0 || errno == ENOENT) return;
    if (errno != EBUSY) return;
    if (attempt % 10 == 0) kill_all();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

Status MemoryCgroup::add(pid_t pid) const {
  return write_text(path_ + "/cgroup.procs", std::to_string(pid));
}

uint64_t MemoryCgroup::oom_kills() const {
  return keyed_value(path_ + (version_ == 2 ? "/memory.events" : "/memory.oom_control"), "oom_kill");
}

uint64_t MemoryCgroup::limit_bytes() const {
  return number_in(path_ + (version_ == 2 ? "/memory.max" : "/memory.limit_in_bytes"));
}

uint64_t MemoryCgroup::peak_bytes() const {
  return number_in(path_ + (version_ == 2 ? "/memory.peak" : "/memory.max_usage_in_bytes"));
}

void MemoryCgroup::kill_all() const {
  if (version_ == 2 && write_text(path_ + "/cgroup.kill", "1")) return;
  auto procs = read_file(path_ + "/cgroup.procs");
  if (!procs) return;
  for (const auto& pid : words_of(*procs)) kill(static_cast<pid_t>(std::atoi(pid.c_str())), SIGKILL);
}

}  // namespace base
