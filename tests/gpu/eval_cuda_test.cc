// End to end on the cuda backend: the cpu suite's failure modes, plus an
// illegal memory access (the next evaluation in the same process still
// works) and a kernel on a side stream (its time is counted).
#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>

#include <thread>
#include "eval/build/shim.h"

#include "gpu/gpu_support.h"
#include "test_support.h"

using eval::Status;
using test_support::fixture;

namespace {

test_support::RealEvaluator& cuda() {
  static test_support::RealEvaluator evaluator(eval::Backend::cuda, 120, gpu_support::probe().arch);
  return evaluator;
}

// Small sizes for failure modes, full size where timing is the point.
eval::Outcome run_small(const std::string& source) {
  cuda().settings.size = eval::Size::small;
  return cuda().run("level1/19", source);
}
eval::Outcome run_full(const std::string& source) {
  cuda().settings.size = eval::Size::full;
  cuda().settings.timing.min_trials = 10;
  cuda().settings.timing.max_trials = 30;
  return cuda().run("level1/19", source);
}

}  // namespace

TEST_SUITE("eval end to end, cuda backend") {
  TEST_CASE("a correct kernel at full size is timed with events against the reference") {
    auto o = run_full(fixture("relu_cuda_correct.cu"));
    CHECK_MESSAGE(o.status == Status::correct, o.message, "\n", (o.compile ? o.compile->log : ""));
    REQUIRE(o.timing.has_value());
    CHECK(o.timing->clock == "cuda_events");
    CHECK_FALSE(o.timing->device_wide);
    CHECK(o.timing->l2_flushed);
    // Both move 12 GiB; neither can be 3x faster than the other.
    CHECK(o.timing->speedup > 0.33);
    CHECK(o.timing->speedup < 3.0);
    CHECK(o.versions.value("gpu", "") != "");
    MESSAGE("relu full: candidate ", o.timing->candidate.median_ms, " ms, reference ", o.timing->reference.median_ms,
            " ms, speedup ", o.timing->speedup);
  }

  TEST_CASE("every verdict says which kernels ran: its own, or only LibTorch's (CUDA-L1's level1/88)") {
    auto own = run_small(fixture("relu_cuda_correct.cu"));
    CHECK_MESSAGE(own.status == Status::correct, own.message);
    REQUIRE(own.kernels.has_value());
    CHECK_MESSAGE(own.kernels->watched, own.kernels->note);
    CHECK(own.kernels->timed_own > 0);
    CHECK_FALSE(own.kernels->library_only());
    CHECK(own.kernels->own_share() > 0.9);
    CHECK_FALSE(own.library_only);

    const eval::EvalSettings saved = cuda().settings;
    cuda().settings.size = eval::Size::small;
    auto gelu = cuda().run("level1/88", fixture("published/library_gelu.cu"));
    CHECK_MESSAGE(gelu.status == Status::correct, gelu.message);
    REQUIRE(gelu.kernels.has_value());
    CHECK_MESSAGE(gelu.kernels->watched, gelu.kernels->note);
    CHECK(gelu.kernels->own_launches == 0);
    CHECK(gelu.kernels->timed_other > 0);
    CHECK(gelu.kernels->library_only());
    CHECK(gelu.kernels->top_other.find("at::native") != std::string::npos);
    CHECK(gelu.library_only);
    CHECK(gelu.message.find("; library only: no kernel of its own ran in the timed calls") != std::string::npos);
    MESSAGE("level1/88 library only: ", gelu.message);

    cuda().settings.library_only = eval::LibraryOnly::reject;
    auto rejected = cuda().run("level1/88", fixture("published/library_gelu.cu"));
    cuda().settings = saved;
    CHECK(rejected.status == Status::rejected);
    CHECK(rejected.message.find("(eval.library_only: reject)") != std::string::npos);
  }

  TEST_CASE("an illegal memory access is a runtime error, and the next evaluation works") {
    auto bad = run_small(fixture("relu_cuda_illegal_address.cu"));
    CHECK(bad.status == Status::runtime_error);
    CHECK(bad.message.find("illegal memory access") != std::string::npos);
    auto good = run_small(fixture("relu_cuda_correct.cu"));
    CHECK_MESSAGE(good.status == Status::correct, good.message);
  }

  TEST_CASE("work on a side stream is counted") {
    auto o = run_full(fixture("relu_cuda_side_stream.cu"));
    CHECK_MESSAGE(o.status == Status::correct, o.message);
    REQUIRE(o.timing.has_value());
    CHECK(o.timing->device_wide);
    // The kernel reads and writes 6 GiB each: it cannot take a fraction of the reference's time.
    CHECK(o.timing->candidate.median_ms > 0.5 * o.timing->reference.median_ms);
    MESSAGE("side stream: candidate ", o.timing->candidate.median_ms, " ms (host ", o.timing->candidate.host_median_ms,
            " ms), reference ", o.timing->reference.median_ms, " ms");
  }

  TEST_CASE("the cpu suite's failure modes, on the GPU") {
    struct Case {
      const char* file;
      Status status;
    };
    const Case cases[] = {
        {"relu_wrong.cpp", Status::mismatch},          {"relu_copy_of_input.cpp", Status::mismatch},
        {"relu_wrong_shape.cpp", Status::wrong_shape}, {"relu_compile_error.cpp", Status::compile_error},
        {"relu_load_error.cpp", Status::load_error},   {"relu_segfault.cpp", Status::crashed},
        {"relu_abort.cpp", Status::crashed},           {"relu_flood.cpp", Status::correct},
        {"relu_mutate_input.cpp", Status::rejected},   {"relu_return_input.cpp", Status::rejected},
        {"relu_throw.cpp", Status::runtime_error},     {"relu_reads_secrets.cpp", Status::runtime_error},
    };
    // nvcc takes seconds per file: fill the compile cache on every core first.
    auto problem = eval::ProblemIndex(eval::default_problems_root()).find("level1/19");
    REQUIRE(problem.ok());
    std::vector<std::future<base::Result<eval::CompiledLibrary>>> compiles;
    for (const auto& c : cases)
      compiles.push_back(std::async(std::launch::async, [&, file = c.file] {
        return cuda().compiler->compile({eval::Backend::cuda, eval::LanguageId::cuda_cxx, false, fixture(file),
                                         eval::make_shim(*problem), "candidate"});
      }));
    for (auto& f : compiles) CHECK(f.get().ok());
    setenv("OPENAI_API_KEY", "sk-test-do-not-leak", 1);
    for (const auto& c : cases) {
      auto o = run_small(fixture(c.file));
      CHECK_MESSAGE(o.status == c.status, c.file, ": ", eval::to_string(o.status), ": ", o.message);
      if (std::string(c.file) == "relu_reads_secrets.cpp") CHECK(o.message == "environment clean");
    }
    unsetenv("OPENAI_API_KEY");
  }

  TEST_CASE("a hang is a timeout, and its runner goes with it") {
    test_support::RealEvaluator short_deadline(eval::Backend::cuda, 15, gpu_support::probe().arch);
    short_deadline.settings.size = eval::Size::small;
    auto o = short_deadline.run("level1/19", fixture("relu_hang.cpp"));
    CHECK(o.status == Status::timeout);
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
      gone = test_support::runners_alive() == 0;
      if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK_MESSAGE(gone, "a runner outlived the timeout");
  }
}
