// End to end on the cpu backend: real compiler, real worker processes, the
// level1/19 (ReLU) problem at its small size. One evaluator serves every case
// in turn, so each case also shows that the driver carries on after the last.
#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <thread>
#include <vector>

#include "test_support.h"

using eval::Status;
using test_support::fixture;

namespace {
test_support::RealEvaluator& cpu() {
  static test_support::RealEvaluator evaluator(eval::Backend::cpu, 60);
  return evaluator;
}
}  // namespace

TEST_SUITE("eval end to end, cpu backend") {
  TEST_CASE("a correct candidate is timed against the reference") {
    auto o = cpu().run("level1/19", fixture("relu_correct.cpp"));
    CHECK_MESSAGE(o.status == Status::correct, o.message);
    REQUIRE(o.timing.has_value());
    CHECK(o.timing->speedup > 0);
    CHECK(o.timing->candidate.trials >= 3);
    CHECK(o.timing->reference.trials >= 3);
    CHECK(o.timing->clock == "steady_clock");
    CHECK(o.timing->l2_flushed);
    CHECK(o.timing->floor_median_ms > 0);
    CHECK(o.timing->trace.is_null());  // only when asked
    CHECK(o.trials.size() == 3);
    for (const auto& t : o.trials) CHECK(t.mismatches == 0);
    CHECK(o.versions.value("libtorch", "") != "");
    CHECK(o.phases_ms.contains("compile"));
    CHECK(o.phases_ms.contains("timing"));
    // What the checks against cheating cost, within the timing.
    for (const char* k : {"static_checks", "timing_fresh_inputs", "timing_checks"})
      CHECK_MESSAGE(o.phases_ms.contains(k), k);
    CHECK(o.phases_ms.value("timing_checks", -1.0) > 0);
    CHECK(o.phases_ms.value("timing_checks", 0.0) + o.phases_ms.value("timing_fresh_inputs", 0.0) <
          o.phases_ms.value("timing", 0.0));
    // As root (CI, containers) a new network namespace is always possible.
    if (geteuid() == 0) CHECK(o.network_isolated);
  }

  TEST_CASE("hidden shapes: a kernel written for the shown shape passes without them and fails with them, by name") {
    auto hardcoded = cpu().run("level1/19", fixture("relu_hardcoded_shape.cpp"));
    CHECK_MESSAGE(hardcoded.status == Status::correct, hardcoded.message);  // the shown size is all it is checked at
    CHECK(hardcoded.hidden_shapes.empty());
    test_support::RealEvaluator hidden(eval::Backend::cpu, 60);
    hidden.settings.hidden_shapes = 3;
    auto caught = hidden.run("level1/19", fixture("relu_hardcoded_shape.cpp"));
    CHECK_MESSAGE(caught.status == Status::fails_hidden_shape, caught.message);
    CHECK(caught.message.find("correct at the shown size, but at hidden shape B=") != std::string::npos);
    REQUIRE(caught.hidden_shapes.size() == 1);  // the first shape fails it; no more are run
    CHECK(caught.hidden_shapes[0]["status"] == "wrong_shape");
    CHECK(caught.timing.has_value());  // the shown size's timing stands
    CHECK(caught.phases_ms.contains("hidden_shapes"));
    auto honest = hidden.run("level1/19", fixture("relu_correct.cpp"));
    CHECK_MESSAGE(honest.status == Status::correct, honest.message);
    REQUIRE(honest.hidden_shapes.size() == 3);
    std::set<std::string> shapes;
    for (const auto& h : honest.hidden_shapes) {
      CHECK(h["status"] == "correct");
      shapes.insert(h["shape"].get<std::string>());
    }
    // Drawn from a secret of each evaluation's own, not from the fixed seed: another run, other shapes.
    auto again = hidden.run("level1/19", fixture("relu_correct.cpp"));
    REQUIRE(again.hidden_shapes.size() == 3);
    std::set<std::string> other;
    for (const auto& h : again.hidden_shapes) other.insert(h["shape"].get<std::string>());
    CHECK(other != shapes);
    MESSAGE("hidden shapes: ", base::join(std::vector<std::string>(shapes.begin(), shapes.end()), "; "),
            "; time added: ", honest.phases_ms.value("hidden_shapes", 0.0), " ms");
  }

  TEST_CASE("eval.precision bf16: both sides get bf16 inputs at bf16's tolerance; an fp32-only kernel fails") {
    test_support::RealEvaluator bf16(eval::Backend::cpu, 60);
    bf16.settings.precision = eval::DType::bfloat16;
    const std::string generic = "#include <ATen/ATen.h>\nat::Tensor forward(at::Tensor x) { return x.clamp_min(0); }\n";
    auto o = bf16.run("level1/19", generic);
    CHECK_MESSAGE(o.status == Status::correct, o.message);
    REQUIRE(o.output_shapes.size() == 1);
    CHECK(o.output_shapes[0].find("bfloat16") != std::string::npos);
    auto fp32_only = bf16.run("level1/19", fixture("relu_correct.cpp"));  // data_ptr<float>() on bf16 input
    CHECK(fp32_only.status != Status::correct);
    MESSAGE("an fp32-only kernel at bf16: ", eval::to_string(fp32_only.status), ": ", fp32_only.message.substr(0, 160));
    auto problem = eval::ProblemIndex(eval::default_problems_root()).find("level1/19");
    REQUIRE(problem.ok());
    const auto tolerance = eval::effective_tolerance(*problem, bf16.settings);
    CHECK(tolerance.atol == doctest::Approx(1e-2));
    CHECK(tolerance.rtol == doctest::Approx(1e-2));
    CHECK(o.precision == "bf16");
    CHECK(o.precision_note.empty());
    // A problem whose spec calls bf16 unfit runs at fp32, at fp32's tolerance, and says so: the
    // fp32-only kernel is then correct.
    eval::Problem unfit = *problem;
    unfit.unfit_precisions = {{eval::DType::bfloat16, "a test's reason"}};
    auto at_fp32 = bf16.evaluator->evaluate(unfit, fixture("relu_correct.cpp"), bf16.settings);
    REQUIRE(at_fp32.ok());
    CHECK_MESSAGE(at_fp32->status == Status::correct, at_fp32->message);
    CHECK(at_fp32->precision == "fp32");
    CHECK(at_fp32->precision_note.find("a test's reason") != std::string::npos);
    CHECK(eval::effective_tolerance(unfit, bf16.settings).atol == doctest::Approx(1e-4));
  }

  TEST_CASE("dropout takes the harness's mask: applied it is correct, left out it is a mismatch") {
    auto masked = cpu().run("level2/66", fixture("dropout_softmax_masked.cpp"));
    CHECK_MESSAGE(masked.status == Status::correct, masked.message);
    auto unmasked = cpu().run("level2/66", fixture("dropout_softmax_unmasked.cpp"));
    CHECK_MESSAGE(unmasked.status == Status::mismatch, unmasked.message);
  }

  TEST_CASE("asked for, the result holds every timed window as the judge saw it") {
    auto problem = eval::ProblemIndex(eval::default_problems_root()).find("level1/19");
    REQUIRE(problem.ok());
    eval::EvalSettings traced = cpu().settings;
    traced.timing.trace = true;
    auto o = cpu().evaluator->evaluate(*problem, fixture("relu_correct.cpp"), traced);
    REQUIRE(o.ok());
    REQUIRE_MESSAGE(o->status == Status::correct, o->message);
    REQUIRE(o->timing.has_value());
    const nlohmann::json& t = o->timing->trace;
    REQUIRE(t.is_object());
    const int batch = t.at("batch_calls").get<int>();
    CHECK(batch == o->timing->batch_calls);
    const auto windows = t.at("candidate_windows_ms").get<std::vector<double>>();
    const auto claims = t.at("candidate_claims_ms").get<std::vector<double>>();
    REQUIRE(windows.size() == claims.size());
    CHECK(static_cast<int>(windows.size()) * batch == o->timing->candidate.trials);
    CHECK(t.at("reference_windows_ms").size() == t.at("reference_calls_ms").size());
    // An honest runner's calls lie inside the judge's window around them.
    for (size_t w = 0; w < windows.size(); ++w) CHECK(claims[w] <= windows[w]);
    CHECK(t.at("window_cost_ms").get<double>() > 0);
    // The trace is part of the result as written and read back.
    auto back = eval::outcome_from_json(eval::to_json(*o));
    REQUIRE(back.ok());
    CHECK(back->timing->trace == t);
  }

  TEST_CASE(
      "a worker killed while profiling keeps the verdict it wrote before the profile; killed before, it is a timeout") {
    // A stand-in worker: the judge's result, written before the profile (run_job.cc), then a profile that never ends.
    test_support::TempDir dir("refinery-profile-deadline");
    eval::Outcome verdict;
    verdict.status = Status::correct;
    verdict.message = "correct; speedup 1.250x";
    eval::Timing t;
    t.reference.median_ms = 1.25;
    t.reference.trials = t.candidate.trials = 3;
    t.candidate.median_ms = 1.0;
    t.speedup = 1.25;
    verdict.timing = t;
    REQUIRE(base::write_file(dir.path + "/verdict.json", eval::to_json(verdict).dump()).ok());
    auto worker = [&](const std::string& phase) {
      const std::string path = dir.path + "/worker-" + phase + ".sh";
      REQUIRE(base::write_file(path, "#!/bin/sh\ncp " + dir.path + "/verdict.json result.json\necho " + phase +
                                         " >> progress.log\nexec sleep 30\n")
                  .ok());
      std::filesystem::permissions(path, std::filesystem::perms::owner_all);
      return path;
    };
    base::SystemProcessSpawner spawner;
    eval::WorkerJob job;
    job.problem_id = "level1/19";
    auto launch = [&](const std::string& phase) {
      eval::LaunchOptions lo;
      lo.worker_path = worker(phase);
      lo.scratch_dir = dir.path;
      lo.timeout_seconds = 1;
      auto o = eval::WorkerLauncher(lo, spawner).run(job);
      REQUIRE(o.ok());
      return *o;
    };
    auto profiling = launch("profile");
    CHECK_MESSAGE(profiling.status == Status::correct, profiling.message);
    CHECK(profiling.message.find("correct; speedup 1.250x; the profile did not finish within") == 0);
    REQUIRE(profiling.timing.has_value());
    CHECK(profiling.timing->speedup == doctest::Approx(1.25));
    // Killed in any other phase, a result on disk is not a verdict: the deadline is.
    auto timing = launch("timing");
    CHECK(timing.status == Status::timeout);
    CHECK(timing.message.find("killed during timing") != std::string::npos);
  }

  TEST_CASE("KernelBench's mode judges at its 1e-2: an answer 1e-3 off passes there and not in refinery's") {
    const std::string off =
        "#include <torch/torch.h>\ntorch::Tensor forward(torch::Tensor x) { return torch::relu(x) + 1e-3; }\n";
    auto problem = eval::ProblemIndex(eval::default_problems_root()).find("level1/19");
    REQUIRE(problem.ok());
    auto ours = cpu().run("level1/19", off);
    CHECK(ours.status == Status::mismatch);
    CHECK(ours.mode == "refinery");
    eval::EvalSettings kb = cpu().settings;
    kb.mode = eval::Mode::kernelbench;
    auto theirs = cpu().evaluator->evaluate(*problem, off, kb);
    REQUIRE(theirs.ok());
    CHECK_MESSAGE(theirs->status == Status::correct, theirs->message);
    CHECK(theirs->mode == "kernelbench");
    CHECK(eval::summary_json(*theirs)["mode"] == "kernelbench");
    // KernelBench times back-to-back calls without flushing the cache between
    // them (until 2026-12-06 the job's timing options undid that, unseen).
    REQUIRE(theirs->timing.has_value());
    CHECK_FALSE(theirs->timing->l2_flushed);
  }

  TEST_CASE("a wrong candidate is a mismatch with the first differing elements") {
    auto o = cpu().run("level1/19", fixture("relu_wrong.cpp"));
    CHECK(o.status == Status::mismatch);
    CHECK(o.message == "output differs from the reference in 3 of 3 trials");
    REQUIRE(o.trials.size() == 3);
    CHECK(o.trials[0].mismatches > 0);
    REQUIRE_FALSE(o.trials[0].first.empty());
    CHECK(o.trials[0].first[0].index.size() == 2);
    CHECK(o.trials[0].first[0].expected == 0.0);
    CHECK(o.trials[0].first[0].actual < 0.0);
    CHECK_FALSE(o.timing.has_value());
  }

  TEST_CASE("returning a copy of the input does not pass: inputs are signed") {
    auto o = cpu().run("level1/19", fixture("relu_copy_of_input.cpp"));
    CHECK(o.status == Status::mismatch);
    // About half the elements of N(0,1) inputs are negative.
    CHECK(o.trials[0].mismatches > o.trials[0].elements / 3);
  }

  TEST_CASE("an output of the wrong shape") {
    auto o = cpu().run("level1/19", fixture("relu_wrong_shape.cpp"));
    CHECK(o.status == Status::wrong_shape);
    CHECK(o.message == "output 0 has shape [256], expected [256, 16384]");
  }

  TEST_CASE("a compile error carries the compiler's log") {
    auto o = cpu().run("level1/19", fixture("relu_compile_error.cpp"));
    CHECK(o.status == Status::compile_error);
    REQUIRE(o.compile.has_value());
    CHECK_FALSE(o.compile->ok);
    CHECK(o.compile->log.find("'y' was not declared in this scope") != std::string::npos);
  }

  TEST_CASE("a library that cannot load") {
    auto o = cpu().run("level1/19", fixture("relu_load_error.cpp"));
    CHECK(o.status == Status::load_error);
    CHECK(o.message.find("candidate library failed to load") == 0);
    CHECK(o.message.find("refinery_test_symbol_nobody_defines") != std::string::npos);
  }

  TEST_CASE("a segfault is a crash, with the signal and where it happened") {
    auto o = cpu().run("level1/19", fixture("relu_segfault.cpp"));
    CHECK(o.status == Status::crashed);
    CHECK(o.signal == SIGSEGV);
    CHECK(o.phase == "candidate trial 0");
    CHECK(o.message.find("the runner was killed by SIGSEGV") == 0);
    CHECK(o.message.find("during candidate trial 0") != std::string::npos);
  }

  TEST_CASE("on two workers, evaluations run side by side; a crash has its slot probed for real and kept") {
    auto problem = eval::ProblemIndex(eval::default_problems_root()).find("level1/19");
    REQUIRE(problem.ok());
    eval::Evaluator two(*cpu().compiler, *cpu().launcher, {0, 1});
    std::vector<eval::Outcome> outs(4);
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i)
      threads.emplace_back([&, i] {
        auto o = two.evaluate(*problem, fixture(i == 0 ? "relu_segfault.cpp" : "relu_correct.cpp"), cpu().settings);
        REQUIRE_MESSAGE(o.ok(), (o.ok() ? "" : o.error().message));
        outs[i] = std::move(o).value();
      });
    for (auto& t : threads) t.join();
    std::set<int> used;
    for (int i = 0; i < 4; ++i) {
      CHECK_MESSAGE(outs[i].status == (i == 0 ? Status::crashed : Status::correct), outs[i].message);
      CHECK((outs[i].device == 0 || outs[i].device == 1));
      CHECK(outs[i].devices_retired.empty());
      used.insert(outs[i].device);
    }
    CHECK(used.size() == 2);
    // The crash was suspect: its runner ran the reference against itself, which passed.
    CHECK(outs[0].phases_ms.contains("device_probe"));
    CHECK_FALSE(outs[1].phases_ms.contains("device_probe"));
    CHECK(eval::to_json(outs[1])["device"] == outs[1].device);
  }

  TEST_CASE("an abort is a crash") {
    auto o = cpu().run("level1/19", fixture("relu_abort.cpp"));
    CHECK(o.status == Status::crashed);
    CHECK(o.signal == SIGABRT);
  }

  TEST_CASE("a hang is a timeout, and nothing the candidate started survives") {
    test_support::RealEvaluator short_deadline(eval::Backend::cpu, 8);
    auto start = std::chrono::steady_clock::now();
    auto o = short_deadline.run("level1/19", fixture("relu_hang.cpp"));
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(o.status == Status::timeout);
    CHECK(o.message.find("did not finish within 8.00 s; killed during candidate trial 0") == 0);
    CHECK(seconds < 60);
    // The judge went with the deadline, and the runner (PID 1 of its
    // namespace, with everything it started) with the judge.
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
      gone = test_support::runners_alive() == 0;
      if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK_MESSAGE(gone, "a runner outlived the timeout");
  }

  TEST_CASE("flooding stdout is capped and does not stop a correct result") {
    auto o = cpu().run("level1/19", fixture("relu_flood.cpp"));
    CHECK_MESSAGE(o.status == Status::correct, o.message);
    CHECK(o.stdout_tail.size() < 16 * 1024);
    CHECK(o.stdout_tail.find("bytes omitted") != std::string::npos);
    CHECK(o.stdout_tail.find("[stdout: 67108864 bytes in all]") != std::string::npos);
  }

  TEST_CASE("a candidate that eats memory fails alone, under the address-space cap") {
    test_support::RealEvaluator capped(eval::Backend::cpu, 60, "90a", uint64_t{6} << 30);
    auto o = capped.run("level1/19", fixture("relu_memory_hog.cpp"));
    // The allocator's failure surfaces as an exception; a kill would be a crash. Either way, a verdict.
    CHECK((o.status == Status::runtime_error || o.status == Status::crashed));
    if (o.status == Status::runtime_error) CHECK(o.message.find("alloc") != std::string::npos);
  }

  TEST_CASE("changing an input is rejected") {
    auto o = cpu().run("level1/19", fixture("relu_mutate_input.cpp"));
    CHECK(o.status == Status::rejected);
    CHECK(o.message == "forward changed its input 'x'; inputs must be left unchanged");
  }

  TEST_CASE("returning an input's storage is rejected") {
    auto o = cpu().run("level1/19", fixture("relu_return_input.cpp"));
    CHECK(o.status == Status::rejected);
    CHECK(o.message == "output 0 shares memory with input 'x'; return a new tensor");
  }

  TEST_CASE("an exception is a runtime error with its message") {
    auto o = cpu().run("level1/19", fixture("relu_throw.cpp"));
    CHECK(o.status == Status::runtime_error);
    CHECK(o.message == "candidate gave up");
  }

  TEST_CASE("secrets in the driver's environment never reach the candidate") {
    setenv("OPENAI_API_KEY", "sk-test-do-not-leak", 1);
    setenv("REFINERY_TEST_SECRET", "hunter2", 1);
    auto o = cpu().run("level1/19", fixture("relu_reads_secrets.cpp"));
    unsetenv("OPENAI_API_KEY");
    unsetenv("REFINERY_TEST_SECRET");
    CHECK(o.status == Status::runtime_error);
    CHECK(o.message == "environment clean");
  }

  TEST_CASE("the driver still evaluates correctly after all of the above") {
    auto o = cpu().run("level1/19", fixture("relu_correct.cpp"));
    CHECK_MESSAGE(o.status == Status::correct, o.message);
    CHECK(o.compile->cached);
  }
}
