// Shared set-up for tests that evaluate real candidates: one compile cache for
// the whole test run (so LibTorch's precompiled header is built once), the
// real compiler and worker, and fixture loading.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <unistd.h>

#include "base/fs.h"
#include "base/text.h"
#include "eval/evaluate.h"
#include "eval/problems/problem_index.h"

namespace test_support {

inline std::string fixture(const std::string& name) {
  auto text = base::read_file(std::string(REFINERY_TEST_FIXTURES) + "/candidates/" + name);
  REQUIRE_MESSAGE(text.ok(), name);
  return *text;
}

// tests/fixtures/python/NAME: a Python candidate (KernelBench's ModelNew).
inline std::string python_fixture(const std::string& name) {
  auto text = base::read_file(std::string(REFINERY_TEST_FIXTURES) + "/python/" + name);
  REQUIRE_MESSAGE(text.ok(), name);
  return *text;
}

// Compares `actual` with tests/fixtures/golden/NAME; REFINERY_UPDATE_GOLDEN=1 rewrites the file instead.
inline void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(REFINERY_TEST_FIXTURES) + "/golden/" + name;
  if (const char* u = std::getenv("REFINERY_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    std::ofstream(path) << actual;
    return;
  }
  auto expected = base::read_file(path);
  REQUIRE_MESSAGE(expected.ok(), name);
  CHECK(actual == *expected);
}

inline std::string cache_dir() {
  return std::string(REFINERY_TEST_CACHE);
}

// Unit tests' own copies of the prompts and of level1/19, so that editing the
// live prompts/ or problems/ never changes what a unit test expects.
inline std::string fixture_prompts_dir() {
  return std::string(REFINERY_TEST_FIXTURES) + "/prompts";
}
inline std::string fixture_problems_dir() {
  return std::string(REFINERY_TEST_FIXTURES) + "/problems";
}

// A private temporary folder, removed with everything in it.
struct TempDir {
  explicit TempDir(const std::string& prefix = "refinery-test")
      : path(*base::make_temp_dir(std::filesystem::temp_directory_path().string(), prefix)) {}
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string path;
};

// Real services for one backend, with short timing so tests stay quick.
struct RealEvaluator {
  explicit RealEvaluator(eval::Backend backend, double timeout_seconds = 60, const std::string& cuda_arch = "90a",
                         uint64_t memory_limit_bytes = 0, bool lean_headers = true,
                         uint64_t runner_memory_bytes = eval::default_memory_limit()) {
    eval::CompileOptions co;
    co.cache_dir = cache_dir();
    co.cuda_arch = cuda_arch;
    co.lean_headers = lean_headers;
    compiler = std::make_unique<eval::CompileService>(eval::build_toolchain(), co, spawner);
    eval::LaunchOptions lo;
    lo.worker_path = REFINERY_WORKER_PATH;
    lo.scratch_dir = cache_dir() + "/jobs";
    lo.timeout_seconds = timeout_seconds;
    lo.memory_limit_bytes = memory_limit_bytes;
    lo.runner_memory_bytes = runner_memory_bytes;
    launcher = std::make_unique<eval::WorkerLauncher>(lo, spawner);
    evaluator = std::make_unique<eval::Evaluator>(*compiler, *launcher);
    settings.backend = backend;
    settings.size = backend == eval::Backend::cpu ? eval::Size::small : eval::Size::full;
    settings.trials = 3;
    settings.seed = 1234;
    settings.timing.warmup = 1;
    settings.timing.min_trials = 3;
    settings.timing.max_trials = 5;
    settings.timing.target_seconds = 0;
    // The sandbox and the runtime checks must hold on their own: these
    // tests give every candidate to the worker. The static checks are
    // tested with them on (tests/integrity, the unit tests).
    settings.static_checks = eval::StaticPolicy{};
    (void)eval::apply_policy(settings.static_checks, "off");
    settings.quarantine_speedup = 0;
  }

  eval::Outcome run(const std::string& problem_id, const std::string& source) {
    auto problem = eval::ProblemIndex(eval::default_problems_root()).find(problem_id);
    REQUIRE_MESSAGE(problem.ok(), problem_id);
    auto outcome = evaluator->evaluate(*problem, source, settings);
    REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message));
    return std::move(outcome).value();
  }

  base::SystemProcessSpawner spawner;
  std::unique_ptr<eval::CompileService> compiler;
  std::unique_ptr<eval::WorkerLauncher> launcher;
  std::unique_ptr<eval::Evaluator> evaluator;
  eval::EvalSettings settings;
};

// Replaces every occurrence of `from` in `text`.
inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size())
    text.replace(pos, from.size(), to);
  return text;
}

// True once the process is gone or a zombie.
inline bool process_gone(int pid) {
  auto stat = base::read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!stat.ok()) return true;
  auto close = stat->rfind(')');
  return close != std::string::npos && close + 2 < stat->size() && (*stat)[close + 2] == 'Z';
}

// The parent of a process, or 0 once it is gone.
inline int parent_of(int pid) {
  auto stat = base::read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!stat.ok()) return 0;
  auto close = stat->rfind(')');
  if (close == std::string::npos) return 0;
  // After ") S ": the state, then the parent.
  std::istringstream rest(stat->substr(close + 2));
  std::string state;
  int ppid = 0;
  rest >> state >> ppid;
  return ppid;
}

inline bool is_worker(int pid, bool runner) {
  auto cmdline = base::read_file("/proc/" + std::to_string(pid) + "/cmdline");
  if (!cmdline.ok() || cmdline->find("refinery-worker") == std::string::npos) return false;
  return runner == (cmdline->find("--runner") != std::string::npos);
}

// How many `refinery-worker --runner` processes are alive (zombies aside)
// that this test started, or that outlived the judge that started them.
// Runners of other test programs running beside this one (ctest -j) under
// a live judge of their own are not counted.
inline int runners_alive() {
  int count = 0;
  int self = getpid();
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    int pid = std::stoi(name);
    if (!is_worker(pid, true) || process_gone(pid)) continue;
    int parent = parent_of(pid);
    bool ours = false;
    for (int p = parent; p > 1 && !ours; p = parent_of(p)) ours = p == self;
    bool orphaned = parent <= 1 || !is_worker(parent, false);
    if (ours || orphaned) ++count;
  }
  return count;
}

}  // namespace test_support
