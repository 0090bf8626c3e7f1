#include <doctest/doctest.h>

#include "agent/campaign/prompt.h"
#include "base/fs.h"
#include "eval/problems/problem_index.h"
#include "test_support.h"

namespace {

using test_support::check_golden;

agent::PromptTemplates templates() {
  auto t = agent::PromptTemplates::load(test_support::fixture_prompts_dir());
  REQUIRE(t.ok());
  return *t;
}

}  // namespace

TEST_SUITE("agent::prompt") {
  TEST_CASE("a placeholder without a value names the template and line") {
    auto r = agent::fill("a\nb {{x}} {{y}}\n", {{"x", "1"}}, "t.txt");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "t.txt:2: no value for {{y}}");
    CHECK(*agent::fill("{{x}}{{x}}!", {{"x", "ab"}}, "t.txt") == "abab!");
  }

  TEST_CASE("the first turn for level1/19 on an H200") {
    auto problem = eval::ProblemIndex(test_support::fixture_problems_dir()).find("level1/19");
    REQUIRE(problem.ok());
    auto reference = base::read_file(problem->reference_path);
    agent::Target target{eval::Backend::cuda, eval::LanguageId::cuda_cxx,
                         "NVIDIA H200: 132 SMs, 141 GB HBM3e at 4.8 TB/s, 60 MB L2", "nvcc 13.0 (sm_90a)", "2.11.0"};
    auto values = agent::first_turn_values(*problem, "full", target, {1e-4, 1e-4}, *reference);
    auto text = templates().render("first_turn", values);
    REQUIRE_MESSAGE(text.ok(), (text.ok() ? "" : text.error().message));
    check_golden("first_turn_relu_cuda.txt", *text);
  }

  TEST_CASE("feedback for a mismatch lists trials and first mismatches") {
    eval::Outcome o;
    o.status = eval::Status::mismatch;
    o.message = "output differs from the reference in 1 of 1 trials";
    eval::TrialDiff d;
    d.mismatches = 3;
    d.elements = 400;
    d.max_abs = 0.5;
    d.max_rel = 2.0;
    d.first = {{{0, 1}, 0.0, -0.25}, {{3, 7}, 1.5, 1.0}};
    o.trials = {d};
    auto text = agent::render_feedback(templates(), o, {"compile", "correctness", "timing"}, 2);
    REQUIRE(text.ok());
    check_golden("feedback_mismatch.txt", *text);
  }

  TEST_CASE("feedback for a compile error starts at the first error and respects the budget") {
    eval::Outcome o;
    o.status = eval::Status::compile_error;
    o.message = "the candidate does not compile";
    o.compile = eval::CompileInfo{};
    o.compile->log = "In file included from x.cu:1:\nx.cu:4:10: error: 'y' was not declared in this scope\n" +
                     std::string(5000, 'z') + "\n";
    auto text = agent::render_feedback(templates(), o, {"compile"}, 1, 200);
    REQUIRE(text.ok());
    check_golden("feedback_compile_error.txt", *text);
    auto without = agent::render_feedback(templates(), o, {"timing"}, 1, 200);
    REQUIRE(without.ok());
    CHECK(without->find("Compiler output") == std::string::npos);
  }

  TEST_CASE("feedback for a correct kernel gives the timing") {
    eval::Outcome o;
    o.status = eval::Status::correct;
    o.message = "correct; speedup 1.250x";
    o.timing = eval::Timing{};
    o.timing->candidate.median_ms = 2.0;
    o.timing->reference.median_ms = 2.5;
    o.timing->speedup = 1.25;
    auto text = agent::render_feedback(templates(), o, {"timing"}, 3);
    REQUIRE(text.ok());
    CHECK(text->find("Your kernel: 2.000 ms median. Reference: 2.500 ms median. Speedup: 1.250x.") !=
          std::string::npos);
    CHECK(text->find("No kernel of your own") == std::string::npos);
  }

  TEST_CASE("runtime feedback gives the kernel's own time and not the reference's (the paper's feedback)") {
    eval::Outcome o;
    o.status = eval::Status::correct;
    o.timing = eval::Timing{};
    o.timing->candidate.median_ms = 2.0;
    o.timing->reference.median_ms = 2.5;
    o.timing->speedup = 1.25;
    auto text = agent::render_feedback(templates(), o, {"correctness", "runtime"}, 3);
    REQUIRE(text.ok());
    CHECK(text->find("Your kernel: 2.000 ms median.") != std::string::npos);
    CHECK(text->find("2.500") == std::string::npos);
    CHECK(text->find("1.250") == std::string::npos);
    CHECK(text->find("Reference") == std::string::npos);
    // No feedback at all (the paper's "previous generation only"): not even the status.
    o.status = eval::Status::mismatch;
    o.message = "output 0 differs from the reference in 3 of 3 trials";
    auto bare = agent::render_feedback(templates(), o, {}, 4);
    REQUIRE(bare.ok());
    CHECK(bare->find("(turn 4)") != std::string::npos);
    CHECK(bare->find("mismatch") == std::string::npos);
    CHECK(bare->find("differs") == std::string::npos);
    CHECK(bare->find("Improve the implementation") != std::string::npos);
  }

  TEST_CASE("kernelbench's prompt with zero, one or three examples, and with or without the hardware") {
    auto problem = eval::ProblemIndex(eval::default_problems_root()).find("level1/19");
    REQUIRE(problem.ok());
    auto real = agent::PromptTemplates::load(agent::default_prompts_dir());
    REQUIRE(real.ok());
    agent::Target target{eval::Backend::cuda, eval::LanguageId::python, "NVIDIA H100: 132 SMs", "nvcc", "2.11.0"};
    for (auto kernels : {agent::KernelLanguage::cuda, agent::KernelLanguage::triton, agent::KernelLanguage::cpp}) {
      auto count = [](const std::string& text, const std::string& what) {
        size_t n = 0;
        for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
        return n;
      };
      auto zero = agent::kernelbench_first_turn(*real, *problem, "full", target, {1e-4, 1e-4}, kernels, 0);
      auto one = agent::kernelbench_first_turn(*real, *problem, "full", target, {1e-4, 1e-4}, kernels, 1);
      auto few = agent::kernelbench_first_turn(*real, *problem, "full", target, {1e-4, 1e-4}, kernels, 3);
      REQUIRE_MESSAGE(zero.ok(), (zero.ok() ? "" : zero.error().message));
      REQUIRE_MESSAGE(one.ok(), (one.ok() ? "" : one.error().message));
      REQUIRE_MESSAGE(few.ok(), (few.ok() ? "" : few.error().message));
      CHECK(count(*zero, "an answer looks like this") == 0);
      CHECK(count(*one, "an answer looks like this") == 1);
      CHECK(count(*one, "An example of the form an answer takes") == 1);
      CHECK(count(*few, "an answer looks like this") == 3);
      CHECK(count(*few, "Example 3 of the form an answer takes") == 1);
      CHECK(few->find("softmax") != std::string::npos);
      CHECK(zero->find("NVIDIA H100: 132 SMs; PyTorch 2.11.0") != std::string::npos);
    }
    agent::Target bare = target;
    bare.hardware.clear();
    auto hidden =
        agent::kernelbench_first_turn(*real, *problem, "full", bare, {1e-4, 1e-4}, agent::KernelLanguage::cuda);
    REQUIRE(hidden.ok());
    CHECK(hidden->find("H100") == std::string::npos);
    CHECK(hidden->find("- Target: PyTorch 2.11.0.") != std::string::npos);
    auto values = agent::first_turn_values(*problem, "full", bare, {1e-4, 1e-4}, "at::Tensor forward(at::Tensor x);");
    auto refinery = real->render("first_turn", values);
    REQUIRE(refinery.ok());
    CHECK(refinery->find("Hardware") == std::string::npos);
    CHECK(refinery->find("Precision") == std::string::npos);
    CHECK(refinery->find("| float32 |") != std::string::npos);
    // eval.precision: both prompts say the dtype, and the input table gives it.
    agent::Target half = target;
    half.precision = eval::DType::bfloat16;
    auto cast = real->render("first_turn", agent::first_turn_values(*problem, "full", half, {1e-2, 1e-2}, "x"));
    REQUIRE(cast.ok());
    CHECK(cast->find("- Precision: every float32 input and weight is cast to bfloat16") != std::string::npos);
    CHECK(cast->find("| float32 |") == std::string::npos);
    CHECK(cast->find("| bfloat16 |") != std::string::npos);
    auto kb = agent::kernelbench_first_turn(*real, *problem, "full", half, {1e-2, 1e-2}, agent::KernelLanguage::cuda);
    REQUIRE(kb.ok());
    CHECK(kb->find("cast to bfloat16") != std::string::npos);
  }

  TEST_CASE("feedback for a library-only kernel says its speedup counts for nothing, and why") {
    eval::Outcome o;
    o.status = eval::Status::correct;
    o.message = "correct; speedup 7.900x; library only: ...";
    o.timing = eval::Timing{};
    o.timing->candidate.median_ms = 1.0;
    o.timing->reference.median_ms = 7.9;
    o.timing->speedup = 7.9;
    o.kernels = eval::KernelEvidence{};
    o.kernels->watched = true;
    o.kernels->timed_other = 20;
    o.kernels->top_other = "void at::native::vectorized_elementwise_kernel<4, gelu>";
    o.library_only = true;
    auto text = agent::render_feedback(templates(), o, {"timing"}, 2);
    REQUIRE(text.ok());
    CHECK(text->find(
              "Speedup: 7.900x.\n\nNo kernel of your own ran in the timed calls: library kernels did all the work "
              "(most launched: void at::native::vectorized_elementwise_kernel<4, gelu>). This campaign counts such "
              "a speedup for nothing; write the computation as a kernel of your own.") != std::string::npos);
  }
}
