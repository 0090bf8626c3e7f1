// Kernels in the styles people publish (tests/fixtures/candidates/published),
// on the cpu backend: <torch/extension.h> compiles without Python, and what
// refinery's shim or its missing pybind11 rejects is one line naming what to
// change, with no host path of the cache in it.
#include <doctest/doctest.h>

#include "agent/campaign/prompt.h"
#include "eval/build/compile_log.h"
#include "test_support.h"

using eval::Status;
using test_support::fixture;

namespace {
test_support::RealEvaluator& published_cpu() {
  static test_support::RealEvaluator evaluator(eval::Backend::cpu, 60);
  return evaluator;
}

eval::Outcome run(const std::string& name) {
  return published_cpu().run("level1/19", fixture("published/" + name));
}

// What the model reads of a compile error: refinery's line(s) alone.
std::string model_reads(const eval::Outcome& o) {
  REQUIRE(o.compile.has_value());
  return agent::trim_compile_log(o.compile->log, 4000);
}

void check_no_cache_paths(const eval::Outcome& o) {
  REQUIRE(o.compile.has_value());
  CHECK_MESSAGE(o.compile->log.find(REFINERY_TEST_CACHE) == std::string::npos, o.compile->log);
  CHECK_MESSAGE(o.compile->log.find("compile-") == std::string::npos, o.compile->log);
}
}  // namespace

TEST_SUITE("published kernels, cpu backend") {
  TEST_CASE("<torch/extension.h> with AT_DISPATCH and a CHECK_ macro compiles and is correct") {
    auto o = run("ext_relu_dispatch.cpp");
    CHECK_MESSAGE(o.status == Status::correct, o.message, "\n", o.compile ? o.compile->log : "");
  }

  TEST_CASE("PYBIND11_MODULE is one line saying to remove it") {
    auto o = run("ext_relu_pybind.cpp");
    REQUIRE(o.status == Status::compile_error);
    CHECK(model_reads(o) ==
          "refinery: error: remove PYBIND11_MODULE(...) { ... }: refinery loads the candidate without Python and "
          "calls forward() directly");
    check_no_cache_paths(o);
  }

  TEST_CASE("py:: in the code is one line saying to remove it, with where") {
    auto o = run("ext_relu_py_array.cpp");
    REQUIRE(o.status == Status::compile_error);
    std::string said = model_reads(o);
    CHECK_MESSAGE(said.rfind("refinery: error: candidate.cpp:5:", 0) == 0, said);
    CHECK(said.find("remove the pybind11 (py::) code") != std::string::npos);
    CHECK(said.find('\n') == std::string::npos);
  }

  TEST_CASE("a missing forward names the signature the problem expects") {
    auto o = run("ext_no_forward.cpp");
    REQUIRE(o.status == Status::compile_error);
    CHECK(model_reads(o) ==
          "refinery: error: no forward() that takes this problem's inputs; expected torch::Tensor "
          "forward(torch::Tensor x)");
    check_no_cache_paths(o);
  }

  TEST_CASE("a forward that returns no tensor names the signature") {
    auto o = run("ext_forward_returns_void.cpp");
    REQUIRE(o.status == Status::compile_error);
    CHECK(model_reads(o) ==
          "refinery: error: forward() must return a torch::Tensor, or a std::tuple or std::vector of them; expected "
          "torch::Tensor forward(torch::Tensor x)");
  }

  TEST_CASE("an in-place ReLU that returns its input is rejected") {
    auto o = run("ext_relu_inplace_returns_input.cpp");
    CHECK_MESSAGE(o.status == Status::rejected, o.message);
  }

  TEST_CASE("an error in the candidate's own code is the compiler's, with its path made relative") {
    auto o = published_cpu().run(
        "level1/19", "#include <torch/extension.h>\ntorch::Tensor forward(torch::Tensor x) { return x.relu() }\n");
    REQUIRE(o.status == Status::compile_error);
    std::string said = model_reads(o);
    CHECK_MESSAGE(said.find("candidate.cpp:2:") != std::string::npos, said);
    check_no_cache_paths(o);
  }
}
