// Standby judges (eval/worker_launcher.h, "Standbys"; eval/worker/standby.h)
// with real processes: turned on for the cpu backend, a Python evaluation
// leaves a standby whose runner has imported torch, and the next one is
// judged on it; one whose runner or judge was killed while it waited is
// discarded; a C++ candidate never uses one; the launcher's end leaves no
// process, cgroup or folder behind. Timing is off, to keep them quick.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include "base/cgroup.h"
#include "base/fs.h"
#include "base/subprocess.h"
#include "base/text.h"
#include "build_info.h"
#include "eval/worker/standby.h"
#include "eval/worker_launcher.h"
#include "test_support.h"

using eval::Status;
using test_support::python_fixture;

namespace standby_test {

bool skip() {
  if (REFINERY_PYTHON_FOUND) return false;
  MESSAGE("skipped: refinery was built without a Python whose torch is its LibTorch (python3-torch)");
  return true;
}

// A real evaluator whose launcher keeps standbys for cpu jobs, in a scratch folder of its own.
struct StandbyEvaluator {
  test_support::TempDir scratch{"refinery-standby"};
  test_support::RealEvaluator e{eval::Backend::cpu, 120};
  StandbyEvaluator() {
    eval::LaunchOptions lo = e.launcher->options();
    lo.scratch_dir = scratch.path;
    lo.standby_backends = {eval::Backend::cpu};
    e.evaluator.reset();
    e.launcher = std::make_unique<eval::WorkerLauncher>(lo, e.spawner);
    e.evaluator = std::make_unique<eval::Evaluator>(*e.compiler, *e.launcher);
    e.settings.timing.enabled = false;
  }
  eval::Outcome python(const std::string& fixture) {
    e.settings.language = eval::LanguageId::python;
    return e.run("level1/19", python_fixture(fixture));
  }
  void end() {
    e.evaluator.reset();
    e.launcher.reset();
  }
};

std::string read_text(const std::string& path) {
  auto t = base::read_file(path);
  return t ? *t : "";
}

// The processes below `pid` (its children, theirs, ...), each with its command line.
std::vector<std::pair<pid_t, std::string>> descendants(pid_t pid) {
  std::vector<std::pair<pid_t, std::string>> all, out;
  std::map<pid_t, pid_t> parent;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string stat = read_text(e.path().string() + "/stat");
    auto close = stat.rfind(')');
    if (close == std::string::npos || stat.size() < close + 4 || stat[close + 2] == 'Z') continue;
    pid_t ppid = std::atoi(stat.c_str() + close + 4);
    std::string cmdline = read_text(e.path().string() + "/cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    const pid_t p = std::atoi(name.c_str());
    parent[p] = ppid;
    all.push_back({p, cmdline});
  }
  for (const auto& [p, cmdline] : all)
    for (pid_t up = parent.count(p) ? parent[p] : 0; up > 1; up = parent.count(up) ? parent[up] : 0)
      if (up == pid) {
        out.push_back({p, cmdline});
        break;
      }
  return out;
}

// Whether process `pid` has ended (a zombie no one has reaped yet has).
bool ended(pid_t pid) {
  std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  auto close = stat.rfind(')');
  return close == std::string::npos || stat.size() < close + 3 || stat[close + 2] == 'Z';
}

// The pid of the standby's process whose command line holds `what`, once it is there (0 after 60 s).
pid_t wait_for(const std::string& what) {
  for (int i = 0; i < 600; ++i) {
    for (const auto& [p, cmdline] : descendants(getpid()))
      if (cmdline.find(what) != std::string::npos) return p;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return 0;
}

}  // namespace standby_test

using namespace standby_test;

TEST_SUITE("python candidates, cpu backend: standby judges") {
  TEST_CASE("two Python evaluations in a row: the second is judged on the standby the first left") {
    if (standby_test::skip()) return;
    StandbyEvaluator s;
    auto first = s.python("relu_plain.py");
    REQUIRE_MESSAGE(first.status == Status::correct, first.message);
    CHECK_FALSE(first.runner_standby);
    CHECK(s.e.launcher->standbys() == 1);
    auto second = s.python("relu_inline.py");
    REQUIRE_MESSAGE(second.status == Status::correct, second.message);
    CHECK(second.runner_standby);
    CHECK(second.trusted);
    CHECK(s.e.launcher->standbys() == 1);  // another, for the next
    auto third = s.python("relu_wrong.py");
    CHECK_MESSAGE(third.status == Status::mismatch, third.message);
    CHECK(third.runner_standby);
  }

  TEST_CASE("a standby whose runner, or whose judge, was killed while it waited is discarded; the job runs afresh") {
    if (standby_test::skip()) return;
    StandbyEvaluator s;
    REQUIRE(s.python("relu_plain.py").status == Status::correct);
    for (const char* victim : {"refinery-python-runner --runner", "refinery-worker --standby"}) {
      CAPTURE(victim);
      pid_t pid = wait_for(victim);
      REQUIRE(pid > 0);
      REQUIRE(kill(pid, SIGKILL) == 0);
      auto o = s.python("relu_plain.py");
      CHECK_MESSAGE(o.status == Status::correct, o.message);
      CHECK_FALSE(o.runner_standby);
    }
    // And the one the last job left serves the next.
    REQUIRE(wait_for("refinery-python-runner --runner") > 0);
    auto o = s.python("relu_plain.py");
    CHECK_MESSAGE(o.status == Status::correct, o.message);
    CHECK(o.runner_standby);
  }

  TEST_CASE("the launcher's end leaves no judge, runner, cgroup or folder of a standby behind") {
    if (standby_test::skip()) return;
    StandbyEvaluator s;
    REQUIRE(s.python("relu_plain.py").status == Status::correct);
    REQUIRE(wait_for("refinery-python-runner --runner") > 0);
    const auto before = descendants(getpid());
    CHECK(before.size() >= 2);
    const auto& parent = base::cgroup_parent();
    auto cgroups = [&] {
      int n = 0;
      if (parent.path.empty()) return n;
      const std::string mine = "refinery-runner-" + std::to_string(getpid()) + "-";
      for (const auto& e : std::filesystem::directory_iterator(parent.path))
        n += e.path().filename().string().rfind(mine, 0) == 0;
      return n;
    };
    if (!parent.path.empty()) CHECK(cgroups() == 1);
    s.end();
    for (int i = 0; i < 50 && !descendants(getpid()).empty(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (const auto& [p, cmdline] : descendants(getpid())) CHECK_MESSAGE(false, "left behind: ", p, " ", cmdline);
    for (const auto& [p, cmdline] : before) CHECK_MESSAGE(ended(p), "left behind: ", p, " ", cmdline);
    CHECK(cgroups() == 0);
    CHECK(std::filesystem::is_empty(s.scratch.path));
  }

  TEST_CASE("refinery's exit ends its standbys: no judge, runner or cgroup of one is left") {
    if (standby_test::skip()) return;
    const auto& parent = base::cgroup_parent();
    auto runner_cgroups = [&] {
      std::set<std::string> names;
      if (!parent.path.empty())
        for (const auto& e : std::filesystem::directory_iterator(parent.path))
          if (e.path().filename().string().rfind("refinery-runner-", 0) == 0) names.insert(e.path().string());
      return names;
    };
    const auto cgroups_before = runner_cgroups();
    const std::string jobs = test_support::cache_dir() + "/jobs";
    base::SpawnOptions so;
    so.argv = {REFINERY_BINARY_PATH, "problems",  "check",  "level1/19", "level1/20",   "--python",
               "--backend",          "cpu",       "--size", "small",     "--trials",    "1",
               "--no-timing",        "--standby", "on",     "--json",    "--cache-dir", test_support::cache_dir()};
    so.env = eval::current_environment();
    so.timeout_seconds = 180;
    auto r = base::run_process(so);
    REQUIRE(r.ok());
    CHECK_MESSAGE(r->exit_code == 0, r->err);
    auto j = nlohmann::json::parse(r->out, nullptr, false);
    REQUIRE_MESSAGE((!j.is_discarded() && j.size() == 2), r->out);
    CHECK_MESSAGE(j[0].value("status", "") == "correct", j[0].dump());
    CHECK_MESSAGE(j[1].value("status", "") == "correct", j[1].dump());
    // Without timing, problems check runs one evaluation per core at once, so
    // which of them found a standby varies; each left one as it ended, and the
    // last of those was still waiting when refinery exited.
    auto left = [&] {
      std::vector<std::string> found;
      for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos || ended(std::atoi(name.c_str()))) continue;
        std::string cmdline = read_text(e.path().string() + "/cmdline");
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        if (cmdline.find("--standby " + jobs) != std::string::npos) found.push_back(name + " " + cmdline);
      }
      return found;
    };
    for (int i = 0; i < 50 && !left().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK_MESSAGE(left().empty(), base::join(left(), "; "));
    CHECK(runner_cgroups() == cgroups_before);
  }

  TEST_CASE("a C++ candidate never uses a standby, nor leaves one") {
    if (standby_test::skip()) return;
    StandbyEvaluator s;
    s.e.settings.language = eval::LanguageId::cxx;
    for (int i = 0; i < 2; ++i) {
      auto o = s.e.run("level1/19", test_support::fixture("relu_correct.cpp"));
      CHECK_MESSAGE(o.status == Status::correct, o.message);
      CHECK_FALSE(o.runner_standby);
      CHECK(s.e.launcher->standbys() == 0);
    }
  }

  TEST_CASE("refinery-worker --standby refuses a job of another kind: exit code 4, why on stderr, no result") {
    if (standby_test::skip()) return;
    test_support::TempDir dir("refinery-standby-worker");
    eval::WorkerJob start;
    start.candidate_language = eval::LanguageId::python;
    start.result_path = dir.path + "/result.json";
    start.progress_path = dir.path + "/progress.log";
    eval::WorkerJob job = start;
    job.backend = eval::Backend::cuda;
    REQUIRE(base::write_file(dir.path + "/standby.json", eval::to_json(start).dump()).ok());
    REQUIRE(base::write_file(dir.path + "/job.json", eval::to_json(job).dump()).ok());
    int pair[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
    const std::string line = dir.path + "/job.json\n";  // waits in the socket until the standby reads it
    REQUIRE(write(pair[0], line.data(), line.size()) == static_cast<ssize_t>(line.size()));
    base::SpawnOptions so;
    so.argv = {REFINERY_WORKER_PATH, "--standby", dir.path + "/standby.json"};
    so.env = eval::worker_environment(eval::current_environment(), dir.path, 0);
    so.cwd = dir.path;
    so.stdin_fd = pair[1];
    so.timeout_seconds = 60;
    auto r = base::run_process(so);
    close(pair[0]);
    close(pair[1]);
    REQUIRE(r.ok());
    CHECK(r->exit_code == eval::kStandbyUnusedExit);
    CHECK_MESSAGE(r->err.find("the job does not match the standby: the job's backend is cuda, the standby's cpu") !=
                      std::string::npos,
                  r->err);
    CHECK_FALSE(std::filesystem::exists(start.result_path));
  }

  TEST_CASE("a standby refuses a job it was not started for, and says which part differs") {
    eval::WorkerJob start;
    start.backend = eval::Backend::cuda;
    start.candidate_language = eval::LanguageId::python;
    start.result_path = "/s/result.json";
    start.progress_path = "/s/progress.log";
    eval::WorkerJob job = start;
    CHECK(eval::worker::standby_mismatch(start, job).empty());
    job.backend = eval::Backend::cpu;
    CHECK(eval::worker::standby_mismatch(start, job) == "the job's backend is cpu, the standby's cuda");
    job = start;
    job.device = 1;
    CHECK(eval::worker::standby_mismatch(start, job) == "the job's device is 1, the standby's 0");
    job = start;
    job.candidate_language = eval::LanguageId::cxx;
    CHECK(eval::worker::standby_mismatch(start, job) == "the job's language is cpp, the standby's python");
    job = start;
    job.runner_cgroup = "/sys/fs/cgroup/memory/other";
    CHECK(eval::worker::standby_mismatch(start, job) ==
          "the job's runner cgroup is '/sys/fs/cgroup/memory/other', the standby's ''");
  }
}
