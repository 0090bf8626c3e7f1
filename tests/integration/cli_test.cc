// The refinery binary as a user runs it: exit codes, --json, usage errors.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "base/subprocess.h"
#include "eval/worker_launcher.h"
#include "test_support.h"

namespace {

base::ProcessResult refinery(std::vector<std::string> args) {
  base::SpawnOptions o;
  o.argv = {REFINERY_BINARY_PATH};
  o.argv.insert(o.argv.end(), args.begin(), args.end());
  o.env = eval::current_environment();
  o.timeout_seconds = 300;
  o.output_cap_bytes = 1 << 20;
  auto r = base::run_process(o);
  REQUIRE(r.ok());
  return *r;
}

std::string candidate(const std::string& name) {
  return std::string(REFINERY_TEST_FIXTURES) + "/candidates/" + name;
}

}  // namespace

TEST_SUITE("refinery command line") {
  TEST_CASE("eval --json prints the promised keys and exits 0 whatever the status") {
    auto r = refinery({"eval", "--problem", "level1/19", "--candidate", candidate("relu_wrong_shape.cpp"), "--backend",
                       "cpu", "--json", "--trials", "2", "--cache-dir", test_support::cache_dir()});
    CHECK(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    CHECK(j["status"] == "wrong_shape");
    CHECK(j["speedup"].is_null());
    CHECK(j["candidate_ms"].is_null());
    CHECK(j["reference_ms"].is_null());
    CHECK(j["message"] == "output 0 has shape [256], expected [256, 16384]");
  }

  TEST_CASE("eval prints a readable summary for a correct candidate") {
    auto r = refinery({"eval", "--problem", "relu", "--candidate", candidate("relu_correct.cpp"), "--backend", "cpu",
                       "--timing-trials", "5", "--cache-dir", test_support::cache_dir()});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("level1/19 relu (small, cpu)") != std::string::npos);
    CHECK(r.out.find("correct: correct; speedup") != std::string::npos);
    CHECK(r.out.find("speedup    ") != std::string::npos);
  }

  TEST_CASE("usage errors exit 2 with the usage text; what cannot be done exits 1 without it") {
    auto unknown = refinery({"eval", "--problem", "level9/1", "--candidate", candidate("relu_correct.cpp")});
    CHECK(unknown.exit_code == 1);
    CHECK(unknown.err.find("unknown problem 'level9/1'") != std::string::npos);
    CHECK(unknown.err.find("usage:") == std::string::npos);
    auto missing = refinery({"eval", "--problem", "relu", "--candidate", "/nonexistent/k.cpp"});
    CHECK(missing.exit_code == 1);
    CHECK(missing.err.find("/nonexistent/k.cpp: cannot open") != std::string::npos);
    CHECK(missing.err.find("usage:") == std::string::npos);
    for (const char* bad : {"inf", "1e300", "nan", "-1", "abc", ""}) {
      auto timeout =
          refinery({"eval", "--problem", "relu", "--candidate", candidate("relu_correct.cpp"), "--timeout", bad});
      CHECK_MESSAGE(timeout.exit_code == 2, bad);
      CHECK(timeout.err.find(std::string("--timeout must be a number between 1 and 86400, got '") + bad + "'") !=
            std::string::npos);
      CHECK(timeout.err.find("usage:") != std::string::npos);
    }
    auto trials =
        refinery({"eval", "--problem", "relu", "--candidate", candidate("relu_correct.cpp"), "--trials", "2.5"});
    CHECK(trials.exit_code == 2);
    CHECK(trials.err.find("--trials must be an integer between 1 and 1000, got '2.5'") != std::string::npos);
    auto flag = refinery({"eval", "--problem", "relu", "--candidat", "x.cpp"});
    CHECK(flag.exit_code == 2);
    CHECK(flag.err.find("unknown flag --candidat (did you mean --candidate?)") != std::string::npos);
    auto backend =
        refinery({"eval", "--problem", "relu", "--candidate", candidate("relu_correct.cpp"), "--backend", "tpu"});
    CHECK(backend.exit_code == 2);
    CHECK(backend.err.find("--backend must be auto, cpu or cuda, not 'tpu'") != std::string::npos);
    auto command = refinery({"evl"});
    CHECK(command.exit_code == 2);
    CHECK(command.err.find("unknown command 'evl' (did you mean 'eval'?)") != std::string::npos);
  }

  TEST_CASE("COMMAND --help prints that command's usage to stdout and exits 0, doing nothing else") {
    for (const char* command : {"accept", "doctor", "eval", "problems", "report", "run", "slurm"}) {
      auto help = refinery({command, "--help"});
      CHECK_MESSAGE(help.exit_code == 0, command, ": ", help.err);
      CHECK_MESSAGE(help.out.find(std::string("usage: refinery ") + command) != std::string::npos, command, ": ",
                    help.out);
      CHECK_MESSAGE(help.err.empty(), command, ": ", help.err);
    }
    // Anywhere among the arguments, and -h too: a config is not read, a run not started.
    auto run = refinery({"run", "/nonexistent/config.yaml", "-h"});
    CHECK(run.exit_code == 0);
    CHECK(run.out.find("--shard") != std::string::npos);
    CHECK(run.out.find("/nonexistent") == std::string::npos);
  }

  TEST_CASE("refinery doctor: every layer of both sandboxes, and the reference timed against itself") {
    auto d = refinery({"doctor", "--backend", "cpu", "--cache-dir", test_support::cache_dir()});
    MESSAGE(d.out);
    REQUIRE_MESSAGE(d.exit_code == 0, d.err);
    for (const char* row :
         {"  pid namespace         yes", "  syscall filter        yes", "  evaluation            correct",
          "  compilers' sandbox    yes", "verdicts here are trusted"})
      CHECK_MESSAGE(d.out.find(row) != std::string::npos, row);
    // Each compile step's memory cgroup, or why it has none (as for the runner's).
    const auto yes = d.out.find("  compilers' cgroup     yes (each compile step's memory capped at 6.0 GiB)\n"),
               no = d.out.find("  compilers' cgroup     NO ("),
               why = d.out.find("  degraded (compilers): memory cgroup: ");
    CHECK((yes != std::string::npos || (no != std::string::npos && why != std::string::npos && no < why)));
    // The speedup of a reference against itself, its uncertainty and its clock.
    const auto at = d.out.find("  timing                ");
    REQUIRE(at != std::string::npos);
    const std::string line = d.out.substr(at, d.out.find('\n', at) - at);
    CHECK_MESSAGE(line.find("x against itself (uncertainty ") != std::string::npos, line);
    CHECK_MESSAGE(line.find("steady_clock)") != std::string::npos, line);
    const double speedup = std::stod(line.substr(24));
    CHECK_MESSAGE((speedup > 0.2 && speedup < 5), line);
    // Without timing there is no figure to show.
    auto untimed = refinery({"doctor", "--backend", "cpu", "--no-timing", "--cache-dir", test_support::cache_dir()});
    CHECK_MESSAGE(untimed.exit_code == 0, untimed.err);
    CHECK(untimed.out.find("  timing ") == std::string::npos);
    CHECK(untimed.out.find("  evaluation            correct") != std::string::npos);
  }

  TEST_CASE("a timing known less well than the threshold is measured again, and marked unstable if it stays so") {
    auto noisy = refinery({"eval", "--problem", "relu", "--candidate", candidate("relu_correct.cpp"), "--backend",
                           "cpu", "--timing-trials", "5", "--max-uncertainty", "0", "--json", "--cache-dir",
                           test_support::cache_dir()});
    REQUIRE_MESSAGE(noisy.exit_code == 0, noisy.err);
    auto j = nlohmann::json::parse(noisy.out);
    REQUIRE(j["status"] == "correct");
    CHECK(j["timing"]["measurements"] == 2);  // any uncertainty is beyond 0: measured twice, still unstable
    CHECK(j["timing"]["unstable"] == true);
    CHECK(j["unstable"] == true);
    auto steady = refinery({"eval", "--problem", "relu", "--candidate", candidate("relu_correct.cpp"), "--backend",
                            "cpu", "--timing-trials", "5", "--max-uncertainty", "1000", "--json", "--cache-dir",
                            test_support::cache_dir()});
    REQUIRE(steady.exit_code == 0);
    auto k = nlohmann::json::parse(steady.out);
    CHECK(k["timing"]["measurements"] == 1);
    CHECK(k["timing"]["unstable"] == false);
    CHECK_FALSE(k.contains("unstable"));
  }

  TEST_CASE("problems list and show") {
    auto list = refinery({"problems", "list"});
    CHECK(list.exit_code == 0);
    CHECK(list.out.find("level1/19     relu") != std::string::npos);
    CHECK(list.out.find("level3/1") != std::string::npos);
    auto show = refinery({"problems", "show", "level1/19"});
    CHECK(show.exit_code == 0);
    CHECK(show.out.find("forward(torch::Tensor x)") != std::string::npos);
    CHECK(show.out.find("return torch::relu(x);") != std::string::npos);
    // --json: what forward receives at that size, a weight list's entries by their own names.
    auto shown = refinery({"problems", "show", "level3/4", "--size", "small", "--json"});
    REQUIRE_MESSAGE(shown.exit_code == 0, shown.err);
    auto j = nlohmann::json::parse(shown.out);
    CHECK(j["problem"] == "level3/4");
    CHECK(j["dims"] == nlohmann::json{{"B", 256}, {"NC", 20}});
    REQUIRE(j["inputs"].size() == 11);
    CHECK(j["inputs"][0] == nlohmann::json{{"name", "x"},
                                           {"weight", false},
                                           {"dtype", "float32"},
                                           {"shape", {256, 1, 32, 32}},
                                           {"draw", {{"kind", "uniform"}, {"a", 0.0}, {"b", 1.0}}}});
    CHECK(j["inputs"][9]["name"] == "fc3.weight");
    CHECK(j["inputs"][9]["list"] == "params");
    CHECK(j["inputs"][9]["shape"] == nlohmann::json{20, 84});
    auto scalar = nlohmann::json::parse(refinery({"problems", "show", "level1/5", "--json"}).out);
    CHECK(scalar["inputs"][1] ==
          nlohmann::json{{"name", "s"}, {"weight", false}, {"dtype", "float64"}, {"scalar", 3.14}});
  }

  TEST_CASE("problems check runs a reference twice and prints its median") {
    auto r = refinery({"problems", "check", "level1/19", "--backend", "cpu", "--timing-trials", "5", "--cache-dir",
                       test_support::cache_dir()});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("level1/19 relu") != std::string::npos);
    CHECK(r.out.find("ok   reference") != std::string::npos);
    CHECK(r.out.find("1 of 1 problems ok (cpu, size small)") != std::string::npos);
  }

  TEST_CASE("the reference audit flags a workload a kernel can skip, and passes one it cannot") {
    // level2/80's output is identically 0; ReLU depends on its input.
    auto r = refinery({"problems", "check", "level2/80", "level1/19", "--backend", "cpu", "--audit", "--json",
                       "--trials", "2", "--timing-trials", "3", "--cache-dir", test_support::cache_dir()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j.size() == 2);
    CHECK(j[0]["problem"] == "level2/80");
    const auto flagged = j[0]["audit"].get<std::vector<std::string>>();
    CHECK(std::find(flagged.begin(), flagged.end(),
                    "returning zeros passes: the output is nearly zero against its tolerance") != flagged.end());
    CHECK(std::find(flagged.begin(), flagged.end(), "the output is the same whatever the inputs") != flagged.end());
    CHECK(j[1]["problem"] == "level1/19");
    CHECK(j[1]["audit"].empty());
  }
}

TEST_SUITE("refinery command line: secrets") {
  TEST_CASE("refinery's own /proc/<pid>/environ holds no API key while it works") {
    // Whatever refinery starts (a compiler told to #include /proc/<parent>/environ)
    // reads its parent's environment block: it must be empty of keys.
    const std::string key = "sk-test-environ-block-do-not-leak";
    test_support::TempDir dir;
    std::string source = dir.path + "/slow.cpp";
    // A new text each run, so that the candidate's compile is not a cache hit and refinery lives a few
    // seconds (the shared test cache spares the reference and the precompiled header).
    REQUIRE(base::write_file(source, "// " + dir.path + "\n" + test_support::fixture("relu_correct.cpp")).ok());
    int out = open("/dev/null", O_WRONLY);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out, 1);
    posix_spawn_file_actions_adddup2(&actions, out, 2);
    std::vector<std::string> args = {REFINERY_BINARY_PATH,
                                     "eval",
                                     "--problem",
                                     "level1/19",
                                     "--candidate",
                                     source,
                                     "--backend",
                                     "cpu",
                                     "--no-timing",
                                     "--trials",
                                     "1",
                                     "--cache-dir",
                                     test_support::cache_dir()};
    std::vector<std::string> env = eval::current_environment();
    env.push_back("OPENAI_API_KEY=" + key);
    std::vector<char*> argv, envp;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data()) == 0);
    close(out);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    auto environ_text = base::read_file("/proc/" + std::to_string(pid) + "/environ");
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(environ_text.ok());
    CHECK(environ_text->find(key) == std::string::npos);
    CHECK(environ_text->find("OPENAI_API_KEY") == std::string::npos);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
}
