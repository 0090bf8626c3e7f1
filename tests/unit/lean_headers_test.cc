// Lean headers (eval/build/lean_headers.h) against a small LibTorch tree written
// by the test, and the compile service's fall-back to the full headers.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "base/fs.h"
#include "eval/build/compiler.h"
#include "eval/build/lean_headers.h"
#include "fakes.h"

namespace fs = std::filesystem;

namespace {

// A LibTorch include tree with what a plan reads: ATen/Functions.h (four
// operators, and inline code that calls var), torch/types.h, ATen/ATen.h
// including a header that calls at::scalar_tensor_symint.
struct FakeTorch {
  FakeTorch() {
    root = *base::make_temp_dir(fs::temp_directory_path().string(), "refinery-lean-test");
    write("ATen/Functions.h",
          "#pragma once\n#include <ATen/Context.h>\n#include <ATen/ops/relu.h>\n#include <ATen/ops/add.h>\n"
          "#include <ATen/ops/var.h>\n#include <ATen/ops/scalar_tensor.h>\n#include <ATen/ops/empty_like.h>\n"
          "namespace at {\ninline Tensor var(const Tensor& self, int dim) { return at::var(self, IntArrayRef{dim}); "
          "}\n}\n");
    for (const char* op : {"relu", "add", "var", "scalar_tensor", "empty_like"})
      write(std::string("ATen/ops/") + op + ".h", "");
    write("ATen/ATen.h", "#pragma once\n#include <ATen/Functions.h>\n#include \"ScalarOps.h\"\n");
    write("ATen/ScalarOps.h",
          "// at::relu in a comment names nothing\ninline auto s = at::scalar_tensor_symint(1);\n"
          "template <class T> auto v(T t) { return at::symint::empty_like<T>(t); }\n");
    write("torch/types.h",
          "#pragma once\n#include <ATen/ATen.h>\n#include <torch/csrc/autograd/variable.h>\nnamespace torch {\n"
          "// exposes at:: in torch::\nusing namespace at; // NOLINT\nusing Dtype = at::ScalarType;\n"
          "constexpr auto kFloat32 = at::kFloat;\n} // namespace torch\n");
  }
  ~FakeTorch() { fs::remove_all(root); }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((fs::path(root) / rel).parent_path());
    REQUIRE(base::write_file((fs::path(root) / rel).string(), text).ok());
  }
  eval::LeanPlan plan(const std::string& source) const { return eval::plan_lean_headers(source, {root}); }
  std::string root;
};

std::string file_of(const eval::LeanPlan& p, const std::string& path) {
  for (const auto& f : p.files)
    if (f.path == path) return f.text;
  return "";
}

bool has(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

TEST_SUITE("eval::plan_lean_headers") {
  TEST_CASE("a source without an umbrella header is left alone, with no reason") {
    FakeTorch t;
    auto p = t.plan("#include <ATen/core/Tensor.h>\nat::Tensor forward(at::Tensor x) { return x.relu(); }\n");
    CHECK_FALSE(p.use);
    CHECK(p.why_not.empty());
  }

  TEST_CASE("the operators the source and LibTorch's own headers name are kept, and no others") {
    FakeTorch t;
    auto p = t.plan(
        "#include <torch/extension.h>\n// add is only mentioned here\n"
        "torch::Tensor forward(torch::Tensor x) { return torch::relu(x); }\n");
    REQUIRE(p.use);
    CHECK(has(p.ops, "relu"));
    CHECK(has(p.ops, "var"));            // Functions.h's own inline code calls it
    CHECK(has(p.ops, "scalar_tensor"));  // ATen.h's ScalarOps.h calls its _symint form
    CHECK_FALSE(has(p.ops, "add"));      // named in a comment only
    CHECK(has(p.ops, "empty_like"));     // ...and at::symint::empty_like
    std::string functions = file_of(p, "ATen/Functions.h");
    CHECK(functions.find("#include <ATen/ops/relu.h>") != std::string::npos);
    CHECK(functions.find("#include <ATen/ops/add.h>") == std::string::npos);
    CHECK(functions.find("#include <ATen/Context.h>") != std::string::npos);
    CHECK(functions.find("inline Tensor var(const Tensor& self, int dim)") != std::string::npos);
    std::string torch_h = file_of(p, "torch/torch.h");
    CHECK(torch_h.find("#include <ATen/ATen.h>") != std::string::npos);
    CHECK(torch_h.find("using namespace at;") != std::string::npos);
    CHECK(torch_h.find("constexpr auto kFloat32 = at::kFloat;") != std::string::npos);
    CHECK(torch_h.find("autograd") == std::string::npos);
  }

  TEST_CASE("<torch/extension.h>'s CUDA helpers are left out where the source names none of them") {
    FakeTorch t;
    const std::string head = "#include <torch/extension.h>\n";
    const std::string plain = head +
                              "// CUDAGuard, getCurrentCUDAStream: mentioned only\n"
                              "#ifdef __CUDA_ARCH__\n#endif\n"
                              "torch::Tensor forward(torch::Tensor x) { CHECK_CUDA(x); cudaStream_t s = 0; "
                              "return torch::relu(x); }\n";
    auto p = t.plan(plain);
    REQUIRE(p.use);
    CHECK_FALSE(p.cuda_helpers);
    CHECK(file_of(p, "refinery/cuda_helpers.h").find("#pragma once") != std::string::npos);
    for (const char* use : {"auto s = at::cuda::getCurrentCUDAStream();", "c10::cuda::CUDAGuard g(x.device());",
                            "C10_CUDA_KERNEL_LAUNCH_CHECK();", "cublasHandle_t h;", "using namespace at::cuda;",
                            "at::cuda::OptionalCUDAGuard g;", "cusparseHandle_t h;", "auto t = CUDA_R_32F;"}) {
      auto q = t.plan(head + "void f(torch::Tensor x) { " + use + " }\n");
      REQUIRE(q.use);
      CHECK_MESSAGE(q.cuda_helpers, use);
      CHECK_MESSAGE(file_of(q, "refinery/cuda_helpers.h").empty(), use);
    }
  }

  TEST_CASE("an _out or _symint form keeps its operator's header") {
    FakeTorch t;
    auto p = t.plan("#include <torch/torch.h>\nauto f(at::Tensor a, at::Tensor o) { return at::add_out(o, a, a); }\n");
    REQUIRE(p.use);
    CHECK(has(p.ops, "add"));
  }

  TEST_CASE("what could compile lean and mean something else gets the full headers, with the reason") {
    FakeTorch t;
    const std::string head = "#include <torch/extension.h>\n";
    CHECK(t.plan(head + "auto t = torch::tensor({1.0, 2.0});\n").why_not == "uses torch::tensor");
    // The screen, which reads no LibTorch file, decides the same from the source.
    CHECK(eval::screen_lean_headers(head + "auto t = torch::tensor({1.0, 2.0});\n").why_not == "uses torch::tensor");
    auto screened = eval::screen_lean_headers(head + "auto f(torch::Tensor x) { return torch::relu(x); }\n");
    CHECK(screened.use);
    CHECK(screened.files.empty());
    CHECK(t.plan(head + "int n = torch::cuda::device_count();\n").why_not == "uses torch::cuda");
    CHECK(t.plan(head + "auto o = x.options().requires_grad(true);\n").why_not == "uses requires_grad");
    CHECK(t.plan(head + "using namespace torch;\n").why_not == "has `using namespace torch`");
    CHECK(t.plan(head + "#include <torch/nn/functional.h>\n").why_not == "includes <torch/nn/functional.h>");
    // Only code decides: the same words in a comment or a string do not.
    auto p = t.plan(head + "// torch::tensor and requires_grad\nconst char* s = \"using namespace torch\";\n");
    CHECK(p.use);
  }

  TEST_CASE("operators LibTorch's own headers were found to call are learnt, and nothing else is") {
    FakeTorch t;
    const std::vector<std::string> dirs = {t.root};
    const std::string source = "#include <torch/torch.h>\nauto forward(at::Tensor x) { return x; }\n";
    CHECK_FALSE(has(t.plan(source).ops, "add"));
    // An error in the candidate's own file, or one that is not a missing operator, teaches nothing.
    CHECK_FALSE(
        eval::learn_lean_ops("/tmp/c/candidate.cu(2): error: identifier \"add\" is undefined\n", "/tmp/c/", dirs));
    CHECK_FALSE(eval::learn_lean_ops("/opt/t/ATen/ExpandUtils.h(487): error: expected a \";\"\n", "/tmp/c/", dirs));
    CHECK_FALSE(
        eval::learn_lean_ops("/opt/t/ATen/A.h(1): error: identifier \"add\" is undefined\n/opt/t/ATen/B.h(2): error: "
                             "no instance of overloaded function\n",
                             "/tmp/c/", dirs));
    CHECK_FALSE(has(t.plan(source).ops, "add"));
    CHECK(eval::learn_lean_ops(
        "/opt/t/ATen/ExpandUtils.h(487): error: namespace \"at::symint\" has no member \"add_symint\"\n"
        "1 error detected in the compilation of \"/tmp/c/candidate.cu\".\n",
        "/tmp/c/", dirs));
    CHECK(has(t.plan(source).ops, "add"));
    // Learnt once: the same error again means the lean headers cannot do it.
    CHECK_FALSE(eval::learn_lean_ops("/opt/t/ATen/ExpandUtils.h(487): error: identifier \"add\" is undefined\n",
                                     "/tmp/c/", dirs));
  }

  TEST_CASE("a LibTorch without per-operator headers is compiled with the full headers") {
    FakeTorch t;
    fs::remove(fs::path(t.root) / "ATen/Functions.h");
    auto p = t.plan("#include <torch/torch.h>\n");
    CHECK_FALSE(p.use);
    CHECK(p.why_not.find("Functions.h") != std::string::npos);
  }
}

TEST_SUITE("eval::CompileService lean headers") {
  struct Fixture {
    Fixture() {
      cache = *base::make_temp_dir(fs::temp_directory_path().string(), "refinery-lean-cache");
      toolchain.cxx = "/usr/bin/fake-g++";
      toolchain.nvcc = "/usr/local/cuda/bin/fake-nvcc";
      toolchain.torch_includes = {torch.root};
      toolchain.torch_lib_dir = "/opt/torch/lib";
      toolchain.torch_version = "9.9";
      options.cache_dir = cache;
      options.use_pch = false;
    }
    ~Fixture() { fs::remove_all(cache); }
    eval::CompileJob job(const std::string& source) {
      return eval::CompileJob{eval::Backend::cuda, eval::LanguageId::cuda_cxx, false, source, "// shim\n", "candidate"};
    }
    // The compile commands run (not --version, not --dryrun).
    std::vector<std::vector<std::string>> compiles() {
      std::vector<std::vector<std::string>> out;
      for (const auto& c : spawner.commands)
        if (c.size() > 2 && std::find(c.begin(), c.end(), "--dryrun") == c.end()) out.push_back(c);
      return out;
    }
    static bool lean_include(const std::vector<std::string>& argv) {
      return std::any_of(argv.begin(), argv.end(), [](const std::string& a) { return a.ends_with("/lean"); });
    }
    FakeTorch torch;
    std::string cache;
    eval::Toolchain toolchain;
    eval::CompileOptions options;
    fakes::FakeCompiler spawner;
  };

  TEST_CASE("a lean compile is used when it succeeds, and its headers are recorded and kept") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto lib = service.compile(
        f.job("#include <torch/extension.h>\nauto forward(torch::Tensor x) { return torch::relu(x); }\n"));
    REQUIRE(lib.ok());
    CHECK(lib->ok);
    CHECK(lib->headers == "lean");
    REQUIRE(f.compiles().size() == 1);
    CHECK(Fixture::lean_include(f.compiles()[0]));
    CHECK(lib->command.find("/lean") != std::string::npos);
    CHECK(fs::exists(fs::path(lib->library_path).parent_path() / "lean/ATen/Functions.h"));
    auto hit = service.compile(
        f.job("#include <torch/extension.h>\nauto forward(torch::Tensor x) { return torch::relu(x); }\n"));
    REQUIRE(hit.ok());
    CHECK(hit->cached);
    CHECK(hit->headers == "lean");
  }

  TEST_CASE("a lean compile that fails is compiled again with the full headers, whose result counts") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto lib =
        service.compile(f.job("#include <torch/torch.h>\n// FULL_ONLY\nauto forward(torch::Tensor x) { return x; }\n"));
    REQUIRE(lib.ok());
    CHECK(lib->ok);
    CHECK(lib->headers ==
          "full: the lean compile failed (candidate.cu(3): error: namespace \"at\" has no member \"save\")");
    REQUIRE(f.compiles().size() == 2);
    CHECK(Fixture::lean_include(f.compiles()[0]));
    CHECK_FALSE(Fixture::lean_include(f.compiles()[1]));
    CHECK(lib->command.find("/lean") == std::string::npos);
    CHECK(lib->log.find("has no member") == std::string::npos);  // the lean attempt's errors are not the verdict's
    REQUIRE_FALSE(lib->steps.empty());
    CHECK(lib->steps.front().first == "lean attempt");
  }

  TEST_CASE("an error in both is the full compile's error") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto lib = service.compile(f.job("#include <torch/torch.h>\nBROKEN forward();\n"));
    REQUIRE(lib.ok());
    CHECK_FALSE(lib->ok);
    CHECK(f.compiles().size() == 2);
    CHECK(lib->log.find("BROKEN is not a type") != std::string::npos);
  }

  TEST_CASE("a source refused up front, or lean headers turned off, compiles once with the full headers") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto refused = service.compile(f.job("#include <torch/torch.h>\nauto t = torch::tensor({1});\n"));
    REQUIRE(refused.ok());
    CHECK(refused->headers == "full: the source uses torch::tensor");
    f.options.lean_headers = false;
    eval::CompileService off(f.toolchain, f.options, f.spawner);
    auto plain = off.compile(f.job("#include <torch/torch.h>\nauto forward(torch::Tensor x) { return x; }\n"));
    REQUIRE(plain.ok());
    CHECK(plain->headers.empty());
    CHECK(f.compiles().size() == 2);
    for (const auto& c : f.compiles()) CHECK_FALSE(Fixture::lean_include(c));
  }
}
