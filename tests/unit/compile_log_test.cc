#include <doctest/doctest.h>

#include "eval/build/compile_log.h"

using eval::clean_compile_log;
using eval::refinery_errors;

TEST_SUITE("eval::clean_compile_log") {
  TEST_CASE("the cache's paths come out of the compiler's output") {
    std::string log =
        "/c/tmp/compile-AB12/candidate.cu(7): error: identifier \"y\" is undefined\n"
        "In file included from /c/include/0123/torch/extension.h:13,\n";
    std::string out = clean_compile_log(log, {{"/c/tmp/compile-AB12/", ""}, {"/c/include/0123/", "<refinery>/"}});
    CHECK(out ==
          "candidate.cu(7): error: identifier \"y\" is undefined\nIn file included from "
          "<refinery>/torch/extension.h:13,\n");
    CHECK(refinery_errors(out).empty());
  }

  TEST_CASE("refinery's static_assert messages go first, once, from gcc and from nvcc") {
    std::string gcc =
        "refinery_shim:42:43: error: static assertion failed: refinery: error: no forward() that takes this problem's "
        "inputs; expected torch::Tensor forward(torch::Tensor x)\n"
        "refinery_shim:42:43: error: static assertion failed: refinery: error: no forward() that takes this problem's "
        "inputs; expected torch::Tensor forward(torch::Tensor x)\n";
    std::string out = clean_compile_log(gcc, {});
    CHECK(refinery_errors(out) ==
          "refinery: error: no forward() that takes this problem's inputs; expected torch::Tensor "
          "forward(torch::Tensor x)");
    CHECK(out.find(gcc) != std::string::npos);  // the compiler's own output follows, whole

    std::string nvcc =
        "candidate.cu(29): error: static assertion failed with \"refinery: error: remove PYBIND11_MODULE(...) { ... "
        "}\"\n";
    CHECK(refinery_errors(clean_compile_log(nvcc, {})) == "refinery: error: remove PYBIND11_MODULE(...) { ... }");
  }

  TEST_CASE("pybind11 names refinery does not have are one line with where") {
    std::string gcc = "candidate.cpp:5:3: error: 'array_t' is not a member of 'py'\n";
    CHECK(refinery_errors(clean_compile_log(gcc, {})) ==
          "refinery: error: candidate.cpp:5:3: remove the pybind11 (py::) code: refinery loads the candidate without "
          "Python and calls forward() with tensors directly");
    std::string nvcc = "candidate.cu(12): error: namespace \"pybind11\" has no member \"array_t\"\n";
    CHECK(refinery_errors(clean_compile_log(nvcc, {}))
              .rfind("refinery: error: candidate.cu(12): remove the pybind11", 0) == 0);
  }

  TEST_CASE("an ordinary error is left as the compiler wrote it") {
    std::string log = "candidate.cpp:2:60: error: expected ';' before '}' token\n";
    CHECK(clean_compile_log(log, {}) == log);
    CHECK(refinery_errors(log).empty());
  }
}
