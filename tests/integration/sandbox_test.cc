// The runner's sandbox on its own (eval/sandbox/sandbox.h, base/cgroup.h): programs
// of the system run in it and report what they see.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "base/cgroup.h"
#include "base/fs.h"
#include "base/text.h"
#include "eval/sandbox/sandbox.h"
#include "test_support.h"

namespace {

struct Ran {
  std::string out;
  int status = 0;
  eval::SandboxLayers layers;
};

// Runs argv in the sandbox and collects its stdout and how it ended.
Ran sandboxed(const std::vector<std::string>& argv, bool walk = false, const base::MemoryCgroup* cgroup = nullptr) {
  test_support::TempDir root("refinery-sandbox-test");
  int out[2];
  REQUIRE(pipe2(out, O_CLOEXEC) == 0);
  eval::SandboxOptions o;
  o.argv = argv;
  o.env = {"PATH=/usr/bin:/bin"};
  o.root_dir = root.path;
  o.stdout_fd = out[1];
  o.remount_by_walk = walk;
  o.cgroup = cgroup;
  auto child = eval::spawn_sandboxed(o);
  close(out[1]);
  REQUIRE_MESSAGE(child.ok(), (child.ok() ? "" : child.error().message));
  Ran r;
  char buf[4096];
  for (ssize_t n; (n = read(out[0], buf, sizeof buf)) > 0;) r.out.append(buf, static_cast<size_t>(n));
  close(out[0]);
  waitpid(child->pid, &r.status, 0);
  r.layers = child->layers;
  return r;
}

// The mounts of the sandbox's own table that are not read-only, but those that are its own to write.
std::vector<std::string> writable_mounts(const std::string& mountinfo) {
  std::vector<std::string> out;
  for (const auto& line : base::split(mountinfo, '\n')) {
    std::istringstream in(line);
    std::string id, parent, device, root, point, options;
    if (!(in >> id >> parent >> device >> root >> point >> options)) continue;
    const bool own = point == "/tmp" || point == "/dev/shm" || point == "/proc" || base::starts_with(point, "/proc/") ||
                     (base::starts_with(point, "/dev/") && !std::filesystem::is_directory("/dev/" + point.substr(5)));
    const auto flags = base::split(options, ',');
    if (!own && std::find(flags.begin(), flags.end(), "ro") == flags.end()) out.push_back(point + " " + options);
  }
  return out;
}

}  // namespace

TEST_SUITE("eval::spawn_sandboxed") {
  TEST_CASE("every bound folder and every mount below one is read-only: with mount_setattr, and one by one") {
    for (bool walk : {false, true}) {
      CAPTURE(walk);
      Ran r = sandboxed({"/usr/bin/cat", "/proc/self/mountinfo"}, walk);
      REQUIRE(WIFEXITED(r.status));
      REQUIRE(r.layers.mount_namespace);
      CHECK(writable_mounts(r.out) == std::vector<std::string>{});
      // The host's cgroup mounts are in the runner's table, read-only.
      if (std::filesystem::exists("/sys/fs/cgroup")) CHECK(r.out.find(" /sys/fs/cgroup") != std::string::npos);
    }
  }

  TEST_CASE("the child is the OOM killer's first choice") {
    Ran r = sandboxed({"/usr/bin/cat", "/proc/self/oom_score_adj"});
    CHECK(base::trim(r.out) == "1000");
    CHECK(r.layers.oom_score_adj == 1000);
  }

  TEST_CASE("in a memory cgroup, a child that takes more than its cap is killed by the cgroup's OOM killer alone") {
    auto parent = base::cgroup_parent();
    if (parent.path.empty()) {
      MESSAGE("no memory cgroup here: " << parent.why_not);
      return;
    }
    auto cgroup = base::MemoryCgroup::create(parent, "refinery-test", 64 << 20);
    REQUIRE_MESSAGE(cgroup.ok(), (cgroup.ok() ? "" : cgroup.error().message));
    const std::string path = (*cgroup)->path();
    CHECK((*cgroup)->limit_bytes() == uint64_t{64} << 20);
    // tail keeps a whole line in memory, and /dev/zero has no line end.
    Ran r = sandboxed({"/usr/bin/tail", "/dev/zero"}, false, cgroup->get());
    CHECK(r.layers.memory_cgroup);
    CHECK(r.layers.memory_cap_bytes == uint64_t{64} << 20);
    REQUIRE(WIFSIGNALED(r.status));
    CHECK(WTERMSIG(r.status) == SIGKILL);
    CHECK((*cgroup)->oom_kills() >= 1);
    CHECK((*cgroup)->peak_bytes() > uint64_t{32} << 20);
    cgroup->reset();
    CHECK_FALSE(std::filesystem::exists(path));  // removed with its owner
  }

  TEST_CASE("the empty cgroups a killed refinery left behind are removed, and no other") {
    auto parent = base::cgroup_parent();
    if (parent.path.empty()) {
      MESSAGE("no memory cgroup here: " << parent.why_not);
      return;
    }
    // A process ID that was just in use and is gone now.
    pid_t gone = fork();
    if (gone == 0) _exit(0);
    REQUIRE(gone > 0);
    REQUIRE(waitpid(gone, nullptr, 0) == gone);
    const std::string live = std::to_string(getpid());
    const std::string stale = parent.path + "/refinery-compile-" + std::to_string(gone) + "-aB3dE9";
    const std::vector<std::string> kept = {parent.path + "/refinery-runner-" + live + "-aB3dE9",
                                           parent.path + "/refinery-test-" + std::to_string(gone) + "-aB3dE9"};
    REQUIRE(mkdir(stale.c_str(), 0755) == 0);
    for (const auto& k : kept) REQUIRE(mkdir(k.c_str(), 0755) == 0);
    CHECK(base::remove_stale_cgroups(parent) >= 1);  // and any other a killed refinery left just now
    CHECK_FALSE(std::filesystem::exists(stale));
    for (const auto& k : kept) {
      CHECK(std::filesystem::exists(k));
      rmdir(k.c_str());
    }
  }

  TEST_CASE("a cgroup that was never made, or is gone, is an error naming it") {
    CHECK(base::MemoryCgroup::join("/nonexistent/cgroup", 1).error().message ==
          "cgroup /nonexistent/cgroup is not there");
    CHECK(base::MemoryCgroup::create({"", 0, "no memory cgroup hierarchy is mounted here"}, "x", 1).error().message ==
          "no memory cgroup hierarchy is mounted here");
  }
}
