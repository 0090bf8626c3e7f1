// Python candidates (KernelBench's ModelNew) on the cuda backend: CUDA
// through load_inline, Triton (compiled by the build's one forward in the
// compilers' sandbox), plain PyTorch (library_only: no kernel of its own),
// and level-2 and level-3 modules with their own layers. Timed at full size
// beside the same kernel as a C++ candidate; the figures go to stdout
// (MESSAGE) for the session log. Skips without a Python runner.
#include <doctest/doctest.h>

#include <chrono>

#include "build_info.h"
#include "gpu/gpu_support.h"
#include "test_support.h"

using eval::Status;
using test_support::python_fixture;

namespace {

test_support::RealEvaluator& cuda() {
  static test_support::RealEvaluator evaluator(eval::Backend::cuda, 300, gpu_support::probe().arch);
  return evaluator;
}

// One evaluation, its wall time (cold: the build; then cached) printed.
eval::Outcome timed(const std::string& label, const std::string& problem, const std::string& source,
                    std::optional<eval::LanguageId> language, eval::Size size) {
  cuda().settings.language = language;
  cuda().settings.size = size;
  cuda().settings.timing.min_trials = 10;
  cuda().settings.timing.max_trials = 30;
  auto t0 = std::chrono::steady_clock::now();
  auto o = cuda().run(problem, source);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE(label, ": ", eval::to_string(o.status), ", wall ", s, " s, build ", (o.compile ? o.compile->seconds : 0),
          " s (cached ", (o.compile && o.compile->cached), "), runner ", o.phases_ms.value("runner", 0.0), " ms, load ",
          o.phases_ms.value("load", 0.0), " ms, speedup ", (o.timing ? o.timing->speedup : 0.0));
  return o;
}

bool skip() {
  if (REFINERY_PYTHON_FOUND) return false;
  MESSAGE("skipped: refinery was built without a Python whose torch is its LibTorch");
  return true;
}

}  // namespace

TEST_SUITE("python candidates, cuda backend") {
  TEST_CASE("level1/19 at full size: load_inline CUDA, Triton and plain PyTorch beside the C++ candidate") {
    if (skip()) return;
    const auto py = eval::LanguageId::python;
    auto cxx = timed("C++ candidate", "level1/19", test_support::fixture("relu_cuda_correct.cu"), std::nullopt,
                     eval::Size::full);
    CHECK_MESSAGE(cxx.status == Status::correct, cxx.message);
    for (int pass = 0; pass < 2; ++pass) {
      auto inline_cuda = timed(pass ? "load_inline, cached" : "load_inline, cold", "level1/19",
                               python_fixture("relu_cuda_inline.py"), py, eval::Size::full);
      CHECK_MESSAGE(inline_cuda.status == Status::correct, inline_cuda.message, "\n",
                    (inline_cuda.compile ? inline_cuda.compile->log : ""));
      CHECK_FALSE(inline_cuda.library_only);
      auto triton = timed(pass ? "Triton, cached" : "Triton, cold", "level1/19", python_fixture("relu_triton.py"), py,
                          eval::Size::full);
      CHECK_MESSAGE(triton.status == Status::correct, triton.message, "\n",
                    (triton.compile ? triton.compile->log : ""));
    }
    auto plain = timed("plain PyTorch", "level1/19", python_fixture("relu_plain.py"), py, eval::Size::full);
    CHECK_MESSAGE(plain.status == Status::correct, plain.message);
    CHECK_MESSAGE(plain.library_only, "a ModelNew that only calls PyTorch launches no kernel of its own");
  }

  TEST_CASE("Triton at hidden shapes: the module is built again at each shape, so the runner compiles nothing") {
    if (skip()) return;
    test_support::RealEvaluator hidden(eval::Backend::cuda, 300, gpu_support::probe().arch);
    hidden.settings.language = eval::LanguageId::python;
    hidden.settings.timing.enabled = false;
    hidden.settings.hidden_shapes = 2;
    auto o = hidden.run("level1/19", python_fixture("relu_triton.py"));
    CHECK_MESSAGE(o.status == Status::correct, o.message, "\n", (o.compile ? o.compile->log : ""));
    CHECK(o.hidden_shapes.size() == 2);
    for (const auto& h : o.hidden_shapes) CHECK_MESSAGE(h["status"] == "correct", h.dump());
  }

  TEST_CASE("a level-2 and a level-3 ModelNew with their own layers are correct") {
    if (skip()) return;
    const auto py = eval::LanguageId::python;
    auto conv = timed("level2/47 Conv3d", "level2/47", python_fixture("conv3d_own_layer.py"), py, eval::Size::small);
    CHECK_MESSAGE(conv.status == Status::correct, conv.message);
    auto mlp = timed("level3/1 MLP", "level3/1", python_fixture("mlp_own_layers.py"), py, eval::Size::small);
    CHECK_MESSAGE(mlp.status == Status::correct, mlp.message);
  }
}
