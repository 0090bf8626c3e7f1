// Python candidates (KernelBench's ModelNew) end to end on the cpu backend:
// the module imported and its load_inline built in the compilers' sandbox,
// run by refinery-python-runner in the runner's sandbox, judged as a C++
// candidate is. Honest modules, broken ones (each with the status a user
// expects) and attacks (tests/fixtures/python). Skips where refinery was
// built without a Python whose torch is its LibTorch.
#include <doctest/doctest.h>

#include <filesystem>

#include "base/subprocess.h"
#include "build_info.h"
#include "eval/build/compiler.h"
#include "eval/worker_launcher.h"
#include "test_support.h"

using eval::Status;
using test_support::python_fixture;

namespace {

// One evaluator for Python candidates: correctness only, or timed.
test_support::RealEvaluator& python(bool timed = false) {
  static auto make = [](bool with_timing) {
    auto* e = new test_support::RealEvaluator(eval::Backend::cpu, 120);
    e->settings.language = eval::LanguageId::python;
    e->settings.timing.enabled = with_timing;
    return e;
  };
  static test_support::RealEvaluator* untimed = make(false);
  static test_support::RealEvaluator* with_timing = make(true);
  return timed ? *with_timing : *untimed;
}

bool skip() {
  if (REFINERY_PYTHON_FOUND) return false;
  MESSAGE("skipped: refinery was built without a Python whose torch is its LibTorch (python3-torch)");
  return true;
}

// What the model reads of a compile error.
std::string build_log(const eval::Outcome& o) {
  return o.compile ? o.compile->log : "";
}

}  // namespace

TEST_SUITE("python candidates, cpu backend") {
  TEST_CASE("plain PyTorch ModelNew: correct, timed, and its language recorded") {
    if (skip()) return;
    auto o = python(true).run("level1/19", python_fixture("relu_plain.py"));
    REQUIRE_MESSAGE(o.status == Status::correct, o.message);
    CHECK(o.language == "python");
    REQUIRE(o.timing.has_value());
    CHECK(o.timing->speedup > 0);
    CHECK(o.trials.size() == 3);
  }

  TEST_CASE("a load_inline C++ ModelNew is built in the compilers' sandbox once, then found in the cache") {
    if (skip()) return;
    auto first = python().run("level1/19", python_fixture("relu_inline.py"));
    REQUIRE_MESSAGE(first.status == Status::correct, (first.message + "\n" + build_log(first)));
    REQUIRE(first.compile.has_value());
    auto again = python().run("level1/19", python_fixture("relu_inline.py"));
    REQUIRE_MESSAGE(again.status == Status::correct, again.message);
    CHECK(again.compile->cached);
    CHECK(again.compile->seconds == 0);
    // The runner's cpp_extension answers load_inline itself and leaves the rest to the real module.
    auto helpers = python().run("level1/19", python_fixture("uses_cpp_extension_helpers.py"));
    CHECK_MESSAGE(helpers.status == Status::correct, helpers.message);
  }

  TEST_CASE("Triton's C modules: the build keeps each by its source's digest, the runner answers from it alone") {
    // A stand-in triton.runtime.build whose _build runs gcc (tests/python/triton_c_modules.py):
    // Triton itself is on the GPU host only, where tests/gpu runs the real one.
    if (skip()) return;
    test_support::TempDir dir;
    base::SpawnOptions o;
    o.argv = {REFINERY_PYTHON, std::string(REFINERY_SOURCE_DIR) + "/tests/python/triton_c_modules.py",
              REFINERY_SOURCE_DIR, dir.path};
    o.env = {"PATH=/usr/bin:/bin"};
    o.timeout_seconds = 60;
    auto r = base::run_process(o);
    REQUIRE(r.ok());
    CHECK_MESSAGE(r->out == "ok\n", r->out, r->err);
    CHECK(r->exited_ok());
  }

  TEST_CASE("hidden shapes: a Python module is built again for each shape and judged there") {
    if (skip()) return;
    test_support::RealEvaluator hidden(eval::Backend::cpu, 120);
    hidden.settings.language = eval::LanguageId::python;
    hidden.settings.timing.enabled = false;
    hidden.settings.hidden_shapes = 2;
    auto honest = hidden.run("level1/19", python_fixture("relu_inline.py"));
    REQUIRE_MESSAGE(honest.status == Status::correct, honest.message);
    REQUIRE(honest.hidden_shapes.size() == 2);
    for (const auto& h : honest.hidden_shapes) CHECK_MESSAGE(h["status"] == "correct", h.dump());
    // Written for the shown shape alone: correct there, caught at the first hidden shape.
    auto shown = python().run("level1/19", python_fixture("relu_shown_shape.py"));
    CHECK_MESSAGE(shown.status == Status::correct, shown.message);
    auto caught = hidden.run("level1/19", python_fixture("relu_shown_shape.py"));
    CHECK_MESSAGE(caught.status == Status::fails_hidden_shape, caught.message);
    REQUIRE(caught.hidden_shapes.size() == 1);
    CHECK(caught.hidden_shapes[0]["status"] == "mismatch");
  }

  TEST_CASE("a level-2 ModelNew with its own nn.Conv3d gets the judge's weights by name, or by order") {
    if (skip()) return;
    auto named = python().run("level2/47", python_fixture("conv3d_own_layer.py"));
    CHECK_MESSAGE(named.status == Status::correct, named.message);
    auto ordered = python().run("level2/47", python_fixture("conv3d_other_names.py"));
    CHECK_MESSAGE(ordered.status == Status::correct, ordered.message);
    auto bad = python().run("level2/47", python_fixture("conv3d_bad_shape.py"));
    CHECK(bad.status == Status::load_error);
    CHECK_MESSAGE(bad.message.find("ModelNew's conv.weight has shape [64, 32, 5, 5, 5] where the reference's "
                                   "conv.weight (conv_weight) has [64, 32, 3, 3, 3]") != std::string::npos,
                  bad.message);
  }

  TEST_CASE("a wrong answer is a mismatch, an answer written into the input is rejected") {
    if (skip()) return;
    auto wrong = python().run("level1/19", python_fixture("relu_wrong.py"));
    CHECK_MESSAGE(wrong.status == Status::mismatch, wrong.message);
    auto in_place = python().run("level1/19", python_fixture("relu_inplace.py"));
    CHECK_MESSAGE(in_place.status == Status::rejected, in_place.message);
  }

  TEST_CASE("a module that does not build says why: no ModelNew, a syntax error, a missing package, a failed build") {
    if (skip()) return;
    struct Case {
      const char* file;
      const char* says;
    } cases[] = {{"no_modelnew.py", "the module defines no class ModelNew"},
                 {"syntax_error.py", "SyntaxError"},
                 {"missing_module.py", "the module imports 'a_package_no_host_has', which this host does not have"},
                 {"inline_fails.py", "load_inline(name='relu_broken') failed"}};
    for (const auto& c : cases) {
      auto o = python().run("level1/19", python_fixture(c.file));
      CHECK_MESSAGE(o.status == Status::compile_error, c.file, ": ", o.message);
      CHECK_MESSAGE(build_log(o).find(c.says) != std::string::npos, c.file, ": ", build_log(o));
    }
    // The broken load_inline's own compiler error reaches the model.
    auto o = python().run("level1/19", python_fixture("inline_fails.py"));
    CHECK_MESSAGE(build_log(o).find("expected ';'") != std::string::npos, build_log(o));
  }

  TEST_CASE("a constructor that raises, a forward of the wrong type or shape, a build in forward") {
    if (skip()) return;
    auto ctor = python().run("level1/19", python_fixture("ctor_raises.py"));
    CHECK(ctor.status == Status::load_error);
    CHECK_MESSAGE(ctor.message.find("this ModelNew refuses to be built") != std::string::npos, ctor.message);
    auto type = python().run("level1/19", python_fixture("forward_wrong_type.py"));
    CHECK(type.status == Status::runtime_error);
    CHECK_MESSAGE(type.message.find("returned str, not a tensor or a tuple of tensors") != std::string::npos,
                  type.message);
    auto shape = python().run("level1/19", python_fixture("forward_wrong_shape.py"));
    CHECK_MESSAGE(shape.status == Status::wrong_shape, shape.message);
    auto late = python().run("level1/19", python_fixture("build_in_forward.py"));
    CHECK(late.status == Status::runtime_error);
    CHECK_MESSAGE(late.message.find("load_inline(name='relu_late') was not built") != std::string::npos, late.message);
  }

  TEST_CASE("an import that never returns is a timeout, and the next candidate is evaluated") {
    if (skip()) return;
    test_support::RealEvaluator e(eval::Backend::cpu, 60);
    eval::CompileOptions co = e.compiler->options();
    co.timeout_seconds = 8;
    e.compiler = std::make_unique<eval::CompileService>(eval::build_toolchain(), co, e.spawner);
    e.evaluator = std::make_unique<eval::Evaluator>(*e.compiler, *e.launcher);
    e.settings.language = eval::LanguageId::python;
    e.settings.timing.enabled = false;
    auto o = e.run("level1/19", python_fixture("import_hangs.py"));
    CHECK_MESSAGE(o.status == Status::timeout, o.message);
    CHECK_MESSAGE(build_log(o).find("did not finish within 8 s") != std::string::npos, build_log(o));
    auto next = e.run("level1/19", python_fixture("relu_plain.py"));
    CHECK_MESSAGE(next.status == Status::correct, next.message);
  }
}

TEST_SUITE("python candidates, cpu backend: attacks") {
  TEST_CASE("no API key reaches the module, at its build or in the runner") {
    if (skip()) return;
    const std::string key = "sk-test-python-attack-do-not-leak";
    test_support::TempDir dir;
    const std::string candidate = dir.path + "/steal.py";
    REQUIRE(base::write_file(candidate, python_fixture("attack_secrets.py")).ok());
    base::SpawnOptions so;
    so.argv = {REFINERY_BINARY_PATH,
               "eval",
               "--problem",
               "level1/19",
               "--candidate",
               candidate,
               "--backend",
               "cpu",
               "--cache-dir",
               test_support::cache_dir(),
               "--trials",
               "1",
               "--no-timing",
               "--size",
               "small",
               "--json",
               "--static-checks",
               "off"};
    so.env = eval::current_environment();
    so.env.push_back("OPENAI_API_KEY=" + key);
    so.env.push_back("REFINERY_TEST_TOKEN=" + key);
    so.timeout_seconds = 180;
    auto r = base::run_process(so);
    REQUIRE(r.ok());
    CHECK(r->exit_code == 0);
    auto j = nlohmann::json::parse(r->out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    CHECK(j.value("status", "") == "runtime_error");
    CHECK_MESSAGE(j.value("message", "").find("RuntimeError: no key found") != std::string::npos, r->out);
    CHECK(r->out.find(key) == std::string::npos);
    CHECK(r->err.find(key) == std::string::npos);
  }

  TEST_CASE("no process the module starts, and no file it writes, reaches the host") {
    if (skip()) return;
    test_support::TempDir dir;
    for (const char* name : {"attack_processes.py", "attack_files.py"}) {
      const std::string marker = dir.path + "/" + name + ".marker";
      auto o = python().run("level1/19", test_support::replace_all(python_fixture(name), "@PATH@", marker));
      CHECK_MESSAGE(o.status == Status::correct, name, ": ", o.message);
      CHECK_MESSAGE(!std::filesystem::exists(marker), name, " wrote ", marker);
    }
  }

  TEST_CASE("a build cannot make refinery read a host file for it: by a link, or by naming it") {
    if (skip()) return;
    test_support::TempDir dir;
    const std::string secret = dir.path + "/host_secret.txt";
    const std::string marker = "host-secret-marker-7d1f";
    REQUIRE(base::write_file(secret, marker + "\n").ok());
    auto o =
        python().run("level1/19", test_support::replace_all(python_fixture("attack_build_links.py"), "@PATH@", secret));
    CHECK_MESSAGE(o.status == Status::compile_error, o.message);
    CHECK_MESSAGE(build_log(o).find("left no library (not a file of the build's folder)") != std::string::npos,
                  build_log(o));
    CHECK(o.message.find(marker) == std::string::npos);
    CHECK(build_log(o).find(marker) == std::string::npos);
  }

  TEST_CASE("an interpreter in a virtual environment builds with the environment's packages and tools") {
    // As on the GPU host, where torch, triton and ninja live in a venv: its
    // pyvenv.cfg and bin must be in the compilers' sandbox.
    if (skip()) return;
    test_support::TempDir dir;
    const std::string env = dir.path + "/env";
    base::SpawnOptions make;
    make.argv = {"/usr/bin/python3", "-m", "venv", "--without-pip", env};
    auto made = base::run_process(make);
    REQUIRE(made.ok());
    REQUIRE_MESSAGE(made->exited_ok(), made->err);
    eval::Toolchain t = eval::build_toolchain();
    t.python = env + "/bin/python3";
    eval::CompileOptions options;
    options.cache_dir = dir.path + "/cache";
    base::SystemProcessSpawner spawner;
    eval::CompileService service(t, options, spawner);
    const std::string source = test_support::replace_all(R"(import os, sys
assert sys.prefix == "@ENV@", "not the environment: " + sys.prefix
assert os.environ["PATH"].split(":")[0] == "@ENV@/bin", "its bin is not first on PATH: " + os.environ["PATH"]
import torch

class ModelNew(torch.nn.Module):
    def forward(self, x):
        return x
)",
                                                         "@ENV@", env);
    auto built = service.compile({eval::Backend::cpu, eval::LanguageId::python, false, source, "", "candidate"});
    REQUIRE_MESSAGE(built.ok(), (built.ok() ? "" : built.error().message));
    CHECK_MESSAGE(built->ok, built->log);
  }

  TEST_CASE("a module that reads its own source, as Triton's @jit does, builds and runs") {
    if (skip()) return;
    auto o = python().run("level1/19", R"py(import inspect
import torch


def relu(x):
    return torch.relu(x)


assert "torch.relu" in inspect.getsource(relu)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        assert "return torch.relu(x)" in inspect.getsource(relu)
        return relu(x)
)py");
    CHECK_MESSAGE(o.status == Status::correct, o.message, "\n", build_log(o));
  }

  TEST_CASE("patched clocks buy nothing: the judge times twenty ReLUs as twenty") {
    if (skip()) return;
    auto o = python(true).run("level1/19", python_fixture("attack_clock.py"));
    REQUIRE_MESSAGE(o.status == Status::correct, o.message);
    REQUIRE(o.timing.has_value());
    CHECK_MESSAGE(o.timing->speedup < 0.5, o.timing->speedup);
  }

  TEST_CASE("an answer cached by pointer fails on the next trial's fresh values in the same place") {
    if (skip()) return;
    auto o = python().run("level1/19", python_fixture("attack_cache_by_pointer.py"));
    CHECK_MESSAGE(o.status == Status::mismatch, o.message);
    CHECK_MESSAGE(o.message.find("output differs from the reference in 1 of 3 trials") == 0, o.message);
  }
}
