// The refinery binary as a user runs it: exit codes, --json, usage errors.
#include <doctest/doctest.h>

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
    auto r = refinery({"eval", "--problem", "level1/19", "--candidate", candidate("relu_wrong_shape.cpp"),
                       "--backend", "cpu", "--json", "--trials", "2", "--cache-dir", test_support::cache_dir()});
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
    auto r = refinery({"eval", "--problem", "relu", "--candidate", candidate("relu_correct.cpp"),
                       "--backend", "cpu", "--timing-trials", "5", "--cache-dir", test_support::cache_dir()});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("level1/19 relu (small, cpu)") != std::string::npos);
    CHECK(r.out.find("correct: correct; speedup") != std::string::npos);
    CHECK(r.out.find("speedup    ") != std::string::npos);
  }

  TEST_CASE("usage errors exit 2 and say what is wrong") {
    auto unknown = refinery({"eval", "--problem", "level9/1", "--candidate", candidate("relu_correct.cpp")});
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err.find("unknown problem 'level9/1'") != std::string::npos);
    auto missing = refinery({"eval", "--problem", "relu", "--candidate", "/nonexistent/k.cpp"});
    CHECK(missing.exit_code == 2);
    CHECK(missing.err.find("/nonexistent/k.cpp: cannot open") != std::string::npos);
    auto flag = refinery({"eval", "--problem", "relu", "--candidat", "x.cpp"});
    CHECK(flag.exit_code == 2);
    CHECK(flag.err.find("unknown flag --candidat (did you mean --candidate?)") != std::string::npos);
    auto backend = refinery({"eval", "--problem", "relu", "--candidate", candidate("relu_correct.cpp"),
                             "--backend", "tpu"});
    CHECK(backend.exit_code == 2);
    CHECK(backend.err.find("unknown backend 'tpu' (expected cpu or cuda)") != std::string::npos);
    auto command = refinery({"evl"});
    CHECK(command.exit_code == 2);
    CHECK(command.err.find("unknown command 'evl' (did you mean 'eval'?)") != std::string::npos);
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
  }

  TEST_CASE("problems check runs a reference twice and prints its median") {
    auto r = refinery({"problems", "check", "level1/19", "--backend", "cpu", "--timing-trials", "5",
                       "--cache-dir", test_support::cache_dir()});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("level1/19 relu") != std::string::npos);
    CHECK(r.out.find("ok   reference") != std::string::npos);
    CHECK(r.out.find("1 of 1 problems ok (cpu, size small)") != std::string::npos);
  }
}
