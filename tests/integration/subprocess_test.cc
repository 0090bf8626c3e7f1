#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/cgroup.h"
#include "base/fs.h"
#include "base/process_caps.h"
#include "base/subprocess.h"
#include "eval/sandbox/sandbox.h"

// These tests start real child processes through /bin/sh and coreutils.

namespace {

namespace fs = std::filesystem;

const std::string kPath = "PATH=/usr/bin:/bin";

// A private folder removed when the test ends.
class TempDir {
 public:
  TempDir() {
    auto dir = base::make_temp_dir(fs::temp_directory_path().string(), "subprocess-test");
    REQUIRE_MESSAGE(dir.ok(), dir.error().message);
    path_ = fs::canonical(*dir).string();
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return (fs::path(path_) / name).string(); }

 private:
  std::string path_;
};

base::SpawnOptions shell(const std::string& script) {
  base::SpawnOptions o;
  o.argv = {"/bin/sh", "-c", script};
  o.env = {kPath};
  o.timeout_seconds = 10;  // a safety net; no test below should come near it
  o.limits = {{RLIMIT_CORE, 0}};
  return o;
}

// Runs options, failing the test if the process could not be started.
base::ProcessResult run(const base::SpawnOptions& options) {
  auto r = base::run_process(options);
  REQUIRE_MESSAGE(r.ok(), r.error().message);
  return std::move(r).value();
}

// True when pid no longer runs: /proc/PID/stat is gone or says zombie ('Z').
bool gone_or_zombie(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  if (text.empty()) return true;
  // "PID (comm) STATE ...": comm may hold spaces or parentheses; the state follows the last ')'.
  size_t close = text.rfind(')');
  REQUIRE(close != std::string::npos);
  REQUIRE(close + 2 < text.size());
  char state = text[close + 2];
  return state == 'Z' || state == 'X';
}

// Polls for up to about a second for pid to go.
bool goes_within_a_second(pid_t pid) {
  for (int i = 0; i < 100; ++i) {
    if (gone_or_zombie(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return gone_or_zombie(pid);
}

pid_t read_pid(const std::string& text) {
  std::istringstream in(text);
  long pid = 0;
  in >> pid;
  REQUIRE_MESSAGE(pid > 1, "no pid in '", text, "'");
  return static_cast<pid_t>(pid);
}

}  // namespace

TEST_SUITE("base::run_process") {
  TEST_CASE("a late deadline counts from its start, and end() kills at once; stdin may be the caller's descriptor") {
    int in[2];
    REQUIRE(pipe2(in, O_CLOEXEC) == 0);
    base::SpawnOptions o;
    o.argv = {"/bin/sh", "-c", "read line; echo \"got $line\"; exec sleep 30"};
    o.stdin_fd = in[0];
    o.late_deadline = std::make_shared<base::LateDeadline>();
    const auto t0 = std::chrono::steady_clock::now();
    std::thread later([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(600));  // no deadline yet: it waits
      (void)!write(in[1], "job\n", 4);                              // checked by what the child printed
      o.late_deadline->start(0.4);
    });
    auto r = base::run_process(o);
    later.join();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    close(in[0]);
    close(in[1]);
    REQUIRE(r.ok());
    CHECK(r->timed_out);
    CHECK(r->out == "got job\n");
    CHECK(s >= 0.95);
    CHECK(s < 5);
    // Ended before it started: killed at once.
    o.stdin_fd = -1;
    o.late_deadline = std::make_shared<base::LateDeadline>();
    o.late_deadline->end();
    auto ended = base::run_process(o);
    REQUIRE(ended.ok());
    CHECK(ended->timed_out);
    CHECK(ended->wall_seconds < 5);
  }

  TEST_CASE("captures the exit code") {
    auto r = run(shell("exit 3"));
    CHECK(r.exit_code == 3);
    CHECK(r.signal == 0);
    CHECK_FALSE(r.timed_out);
    CHECK_FALSE(r.exited_ok());
  }

  TEST_CASE("a zero exit is ok") {
    auto r = run(shell("true"));
    CHECK(r.exit_code == 0);
    CHECK(r.exited_ok());
  }

  TEST_CASE("captures the terminating signal") {
    auto r = run(shell("kill -SEGV $$"));
    CHECK(r.signal == SIGSEGV);
    CHECK(r.exit_code == -1);
    CHECK_FALSE(r.timed_out);
    CHECK_FALSE(r.exited_ok());
    CHECK(base::describe_signal(r.signal).rfind("SIGSEGV", 0) == 0);
  }

  TEST_CASE("captures stdout and stderr separately") {
    auto r = run(shell("echo to-out; echo to-err >&2; printf more"));
    CHECK(r.out == "to-out\nmore");
    CHECK(r.err == "to-err\n");
    CHECK(r.out_bytes == 11);
    CHECK(r.err_bytes == 7);
  }

  TEST_CASE("gives the child exactly the environment in the options") {
    base::SpawnOptions o;
    o.argv = {"/usr/bin/env"};
    o.env = {"A=1"};
    o.timeout_seconds = 10;
    auto r = run(o);
    CHECK(r.exited_ok());
    CHECK(r.out == "A=1\n");
  }

  TEST_CASE("an empty environment inherits nothing") {
    base::SpawnOptions o;
    o.argv = {"/usr/bin/env"};
    o.timeout_seconds = 10;
    auto r = run(o);
    CHECK(r.exited_ok());
    CHECK(r.out == "");
  }

  TEST_CASE("passes the arguments unchanged") {
    base::SpawnOptions o = shell("printf '[%s]' \"$@\"");
    o.argv.push_back("argv0");
    o.argv.push_back("two words");
    o.argv.push_back("");
    o.argv.push_back("$HOME");
    auto r = run(o);
    CHECK(r.out == "[two words][][$HOME]");
  }

  TEST_CASE("the child's stdin is empty and closed") {
    auto r = run(shell("cat"));
    CHECK_FALSE(r.timed_out);
    CHECK(r.exited_ok());
    CHECK(r.out == "");
    CHECK(r.wall_seconds < 5);
  }

  TEST_CASE("runs the child in the given folder") {
    TempDir dir;
    auto o = shell("pwd -P");
    o.cwd = dir.path();
    auto r = run(o);
    CHECK(r.out == dir.path() + "\n");
  }

  TEST_CASE("a missing folder is an error naming it") {
    auto o = shell("true");
    o.cwd = "/nonexistent/folder";
    auto r = base::run_process(o);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "cannot enter /nonexistent/folder: No such file or directory");
  }

  TEST_CASE("a missing program is an error naming it") {
    base::SpawnOptions o;
    o.argv = {"/nonexistent/program", "--flag"};
    auto r = base::run_process(o);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.rfind("cannot execute /nonexistent/program", 0) == 0);
    CHECK(r.error().message == "cannot execute /nonexistent/program: No such file or directory");
  }

  TEST_CASE("an empty argv is an error") {
    base::SpawnOptions o;
    auto r = base::run_process(o);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "run_process: empty argv");
  }

  TEST_CASE("kills the child at the deadline") {
    base::SpawnOptions o;
    o.argv = {"/bin/sleep", "30"};
    o.timeout_seconds = 0.5;
    auto r = run(o);
    CHECK(r.timed_out);
    CHECK(r.signal == SIGKILL);
    CHECK_FALSE(r.exited_ok());
    CHECK(r.wall_seconds >= 0.5);  // not before the deadline
    CHECK(r.wall_seconds < 10);    // and nowhere near the 30 s the child asked for
  }

  TEST_CASE("keeps what the child wrote before the deadline") {
    auto o = shell("echo started; echo warming >&2; sleep 30");
    o.timeout_seconds = 0.5;
    auto r = run(o);
    CHECK(r.timed_out);
    CHECK(r.out == "started\n");
    CHECK(r.err == "warming\n");
  }

  TEST_CASE("kills the process group on timeout") {
    TempDir dir;
    std::string pidfile = dir.file("pid");
    auto o = shell("sleep 300 & echo $! > " + pidfile + "; wait");
    o.timeout_seconds = 0.5;
    auto r = run(o);
    CHECK(r.timed_out);
    CHECK(r.wall_seconds < 10);
    auto text = base::read_file(pidfile);
    REQUIRE_MESSAGE(text.ok(), text.error().message);
    pid_t grandchild = read_pid(*text);
    CHECK(goes_within_a_second(grandchild));
  }

  TEST_CASE("kills what the child left behind when it exits") {
    auto r = run(shell("sleep 300 & echo $!"));
    CHECK_FALSE(r.timed_out);
    CHECK(r.exit_code == 0);
    CHECK(r.wall_seconds < 10);
    pid_t grandchild = read_pid(r.out);
    CHECK(goes_within_a_second(grandchild));
  }

  TEST_CASE("caps output at its head and tail and counts every byte") {
    // 10 MiB of "0123456789\n" repeated: byte i is pattern[i % 11].
    const std::string pattern = "0123456789\n";
    const size_t total = 10u << 20;
    auto o = shell("yes 0123456789 | head -c " + std::to_string(total));
    o.output_cap_bytes = 1000;
    auto r = run(o);
    CHECK(r.exited_ok());
    CHECK(r.out_bytes == total);
    CHECK(r.out.size() < 1200);
    CHECK(r.out.find("bytes omitted") != std::string::npos);

    std::string head, tail;
    for (size_t i = 0; i < 500; ++i) head += pattern[i % pattern.size()];
    for (size_t i = total - 500; i < total; ++i) tail += pattern[i % pattern.size()];
    CHECK(r.out == head + "\n[... " + std::to_string(total - 1000) + " bytes omitted ...]\n" + tail);
  }

  TEST_CASE("caps stdout and stderr independently") {
    auto o = shell("yes | head -c 100000 >&2; echo small");
    o.output_cap_bytes = 100;
    auto r = run(o);
    CHECK(r.out == "small\n");
    CHECK(r.err_bytes == 100000);
    CHECK(r.err.size() < 200);
    CHECK(r.err.find("[... 99900 bytes omitted ...]") != std::string::npos);
  }

  TEST_CASE("applies resource limits: a file size cap stops a big write") {
    TempDir dir;
    std::string file = dir.file("big");
    base::SpawnOptions o;
    o.argv = {"/usr/bin/dd", "if=/dev/zero", "of=" + file, "bs=65536", "count=16"};
    o.timeout_seconds = 10;
    o.limits = {{RLIMIT_CORE, 0}, {RLIMIT_FSIZE, 4096}};
    auto r = run(o);
    CHECK_FALSE(r.exited_ok());
    CHECK(r.signal == SIGXFSZ);
    CHECK(fs::file_size(file) <= 4096);
  }

  TEST_CASE("a private-memory cap stops an allocation but not a reservation of address space, as CUDA makes") {
    // What a compile that may start CUDA is held to (base::ProcessCaps::private_memory_only).
    base::ProcessCaps caps{1ull << 30, 0, 0, 0};
    caps.private_memory_only = true;
    auto python = [&](const std::string& code, const base::ProcessCaps& c) {
      base::SpawnOptions o;
      o.argv = {"/usr/bin/python3", "-c", code};
      o.timeout_seconds = 30;
      o.limits = base::limits(c);
      return run(o);
    };
    const std::string reserve = "import mmap; m = mmap.mmap(-1, 8 << 30, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ)";
    CHECK(python(reserve, caps).exited_ok());
    auto as = caps;
    as.private_memory_only = false;
    CHECK_FALSE(python(reserve, as).exited_ok());  // RLIMIT_AS refuses the reservation: why the GPU needs the other
    auto grown = python("b = bytearray(2 << 30)", caps);
    CHECK_FALSE(grown.exited_ok());
    CHECK(base::exceeded_cap(grown, caps) == "memory cap (1 GiB)");
  }

  TEST_CASE("without the limit the same write succeeds") {
    TempDir dir;
    std::string file = dir.file("big");
    base::SpawnOptions o;
    o.argv = {"/usr/bin/dd", "if=/dev/zero", "of=" + file, "bs=65536", "count=16"};
    o.timeout_seconds = 10;
    auto r = run(o);
    CHECK(r.exited_ok());
    CHECK(fs::file_size(file) == 16 * 65536);
  }

  TEST_CASE("the child holds no descriptors but stdin, stdout and stderr") {
    base::SpawnOptions o;
    o.argv = {"/bin/ls", "/proc/self/fd"};
    o.timeout_seconds = 10;
    auto r = run(o);
    // ls itself holds one more: the folder it is listing.
    CHECK(r.out == "0\n1\n2\n3\n");
  }

  TEST_CASE("network isolation is off unless asked for") {
    auto r = run(shell("true"));
    CHECK_FALSE(r.network_isolated);
  }

  TEST_CASE("several threads may run processes at once") {
    std::vector<std::string> outs(4);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < outs.size(); ++i)
      threads.emplace_back([&outs, i] {
        auto r = base::run_process(shell("sleep 0.1; echo " + std::to_string(i)));
        outs[i] = r.ok() ? r->out : "error: " + r.error().message;
      });
    for (auto& t : threads) t.join();
    for (size_t i = 0; i < outs.size(); ++i) CHECK(outs[i] == std::to_string(i) + "\n");
  }
}

namespace {

// What a compiler would see: the toolchain, and one folder of its own; a
// memory cgroup of its own capped at `cgroup_bytes` (0: none).
base::SpawnOptions sandboxed(const std::string& script, const std::string& scratch, uint64_t cgroup_bytes = 0) {
  auto o = shell(script);
  eval::SandboxView view = eval::toolchain_view();
  view.read_write = {scratch};
  view.require_every_layer = true;
  o.start = std::make_shared<eval::SandboxStarter>(std::move(view), cgroup_bytes);
  o.cwd = scratch;
  return o;
}

// Whether a process whose command line holds `marker` runs anywhere on the host.
bool runs_anywhere(const std::string& marker) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::ifstream cmdline(e.path() / "cmdline");
    std::string text((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
    if (text.find(marker) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_SUITE("base::run_process in a sandbox") {
  TEST_CASE(
      "the child sees the toolchain and its own folder, nothing of /etc but the loader's cache, and /dev/null only") {
    TempDir dir;
    auto r =
        run(sandboxed("ls /etc; ls /dev; ls /; test -e /sys && echo sys; test -e /root && echo root; "
                      "pwd; echo written > here; cat here",
                      dir.path()));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.refused_layers.empty());
    CHECK(r.network_isolated);
    CHECK(r.out.find("alternatives\nld.so.cache\n") == 0);
    CHECK(r.out.find("fd\nnull\nshm\n") != std::string::npos);  // no zero, no urandom, no NVIDIA node
    CHECK(r.out.find("sys\n") == std::string::npos);
    CHECK(r.out.find("root\n") == std::string::npos);
    CHECK(r.out.find(dir.path() + "\nwritten\n") != std::string::npos);
    CHECK(base::read_file(dir.file("here")).value() == "written\n");
  }

  TEST_CASE("the child is unprivileged, may not gain privileges, and is the OOM killer's first choice") {
    TempDir dir;
    auto r =
        run(sandboxed("id -u; grep -E '^(NoNewPrivs|CapEff)' /proc/self/status; cat /proc/self/oom_score_adj; "
                      "echo $$",
                      dir.path()));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find(geteuid() == 0 ? "65534\n" : "0\n") == 0);  // nobody, or a user namespace's root
    CHECK(r.out.find("CapEff:\t0000000000000000\n") != std::string::npos);
    CHECK(r.out.find("NoNewPrivs:\t1\n") != std::string::npos);
    CHECK(r.out.find("\n1000\n1\n") != std::string::npos);  // the OOM score; and it is PID 1
  }

  TEST_CASE("the deadline kills the child and everything it started") {
    TempDir dir;
    const std::string marker = "3" + std::to_string(getpid() % 1000) + "7";
    auto o = sandboxed("sleep " + marker + " & sleep " + marker + " & wait", dir.path());
    o.timeout_seconds = 0.5;
    auto r = run(o);
    CHECK(r.timed_out);
    CHECK(r.wall_seconds < 10);
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
      gone = !runs_anywhere(std::string("sleep\0", 6) + marker);
      if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(gone);
  }

  TEST_CASE("the limits hold inside: a write past the file size cap stops there") {
    TempDir dir;
    auto o = sandboxed("yes | head -c 3000000 > big", dir.path());
    o.limits.push_back({RLIMIT_FSIZE, 1 << 20});
    run(o);
    CHECK(fs::file_size(dir.file("big")) == 1 << 20);
  }

  TEST_CASE("a folder the child writes is handed to its identity, and a missing program is an error") {
    TempDir dir;
    auto r = run(sandboxed("mkdir sub && echo x > sub/f", dir.path()));
    CHECK(r.exit_code == 0);
    struct stat st {};
    REQUIRE(stat(dir.file("sub/f").c_str(), &st) == 0);
    if (geteuid() == 0) CHECK(st.st_uid == 65534u);
    REQUIRE(base::chown_tree(dir.path(), geteuid(), getegid()).ok());
    REQUIRE(stat(dir.file("sub/f").c_str(), &st) == 0);
    CHECK(st.st_uid == geteuid());
    auto o = sandboxed("", dir.path());
    o.argv = {"/no/such/program"};
    auto missing = base::run_process(o);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message.find("/no/such/program") != std::string::npos);
  }

  TEST_CASE("with a cgroup cap, the child is in a memory cgroup of its own, removed once the child is gone") {
    TempDir dir;
    auto r = run(sandboxed("cat /proc/self/cgroup", dir.path(), 64 << 20));
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const base::CgroupParent& parent = base::cgroup_parent();
    if (parent.path.empty()) {
      // Where none can be made the child runs without one, and the result says why.
      MESSAGE("SKIPPED: no memory cgroup for a sandboxed child here (" << parent.why_not << ")");
      CHECK(r.memory_cgroup_bytes == 0);
      CHECK(r.memory_cgroup_note == parent.why_not);
      return;
    }
    CHECK(r.memory_cgroup_bytes == 64 << 20);
    CHECK(r.memory_cgroup_note.empty());
    CHECK_FALSE(r.memory_cgroup_oom);
    const std::string mine = "/refinery-compile-" + std::to_string(getpid()) + "-";
    const auto at = r.out.find(mine);
    REQUIRE_MESSAGE(at != std::string::npos, r.out);
    const std::string name = r.out.substr(at + 1, r.out.find('\n', at) - at - 1);
    CHECK_FALSE(fs::exists(parent.path + "/" + name));
    // Without a cap, none.
    auto plain = run(sandboxed("cat /proc/self/cgroup", dir.path()));
    CHECK(plain.out.find(mine) == std::string::npos);
    CHECK(plain.memory_cgroup_bytes == 0);
    CHECK(plain.memory_cgroup_note.empty());
  }

  TEST_CASE("a child that takes more than its cgroup's cap is ended by the cgroup's OOM killer, which names the cap") {
    if (base::cgroup_parent().path.empty()) {
      MESSAGE("SKIPPED: no memory cgroup for a sandboxed child here (" << base::cgroup_parent().why_not << ")");
      return;
    }
    TempDir dir;
    // 512 MiB written at once, in one process that no rlimit holds here.
    auto r = run(sandboxed("exec /usr/bin/python3 -S -c \"x = b'1' * (512 << 20)\"", dir.path(), 64 << 20));
    INFO(r.err);
    CHECK(r.signal == SIGKILL);
    CHECK(r.memory_cgroup_bytes == 64 << 20);
    CHECK(r.memory_cgroup_oom);
    CHECK(base::exceeded_cap(r, {}) == "memory cap (64 MiB, its cgroup's OOM killer)");
  }
}

TEST_SUITE("base::describe_signal") {
  TEST_CASE("names the signal and says what it means") {
    CHECK(base::describe_signal(SIGSEGV) == std::string("SIGSEGV (") + strsignal(SIGSEGV) + ")");
    CHECK(base::describe_signal(SIGKILL).rfind("SIGKILL (", 0) == 0);
    CHECK(base::describe_signal(SIGXFSZ).rfind("SIGXFSZ (", 0) == 0);
  }

  TEST_CASE("numbers a signal it has no name for") {
    CHECK(base::describe_signal(40).rfind("signal 40", 0) == 0);
  }
}
