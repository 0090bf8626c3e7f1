#include <doctest/doctest.h>

#include <filesystem>

#include "base/fs.h"
#include "eval/compiler.h"
#include "fakes.h"

namespace fs = std::filesystem;

namespace {

struct Fixture {
  Fixture() {
    cache = *base::make_temp_dir(fs::temp_directory_path().string(), "refinery-cache-test");
    toolchain.cxx = "/usr/bin/fake-g++";
    toolchain.nvcc = "/usr/local/cuda/bin/fake-nvcc";
    toolchain.torch_includes = {"/opt/torch/include"};
    toolchain.torch_lib_dir = "/opt/torch/lib";
    toolchain.torch_version = "9.9";
    options.cache_dir = cache;
    options.use_pch = false;
  }
  ~Fixture() { fs::remove_all(cache); }
  eval::CompileJob job(const std::string& source, eval::Backend backend = eval::Backend::cpu) {
    return eval::CompileJob{backend, false, source, "// shim\n", "candidate"};
  }
  std::string cache;
  eval::Toolchain toolchain;
  eval::CompileOptions options;
  fakes::FakeCompiler runner;
};

}  // namespace

TEST_SUITE("eval::CompileService") {
  TEST_CASE("a repeated compile is a cache lookup") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.runner);
    auto first = service.compile(f.job("int forward();"));
    REQUIRE(first.ok());
    CHECK(first->ok);
    CHECK_FALSE(first->cached);
    CHECK(fs::exists(first->library_path));
    auto second = service.compile(f.job("int forward();"));
    REQUIRE(second.ok());
    CHECK(second->cached);
    CHECK(second->library_path == first->library_path);
    CHECK(f.runner.compiles == 1);
  }

  TEST_CASE("the key covers the source, the compiler version and the backend") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.runner);
    auto a = service.compile(f.job("int forward();"));
    auto b = service.compile(f.job("int forward(); "));
    auto c = service.compile(f.job("int forward();", eval::Backend::cuda));
    REQUIRE((a.ok() && b.ok() && c.ok()));
    CHECK(a->key != b->key);
    CHECK(a->key != c->key);
    fakes::FakeCompiler other;
    other.version = "fake-cc 2.0";
    eval::CompileService upgraded(f.toolchain, f.options, other);
    auto d = upgraded.compile(f.job("int forward();"));
    REQUIRE(d.ok());
    CHECK(d->key != a->key);
    CHECK_FALSE(d->cached);
  }

  TEST_CASE("a compile error is a result with its log, and is cached too") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.runner);
    auto r = service.compile(f.job("BROKEN forward();"));
    REQUIRE(r.ok());
    CHECK_FALSE(r->ok);
    CHECK(r->log.find("error: BROKEN is not a type") != std::string::npos);
    auto again = service.compile(f.job("BROKEN forward();"));
    REQUIRE(again.ok());
    CHECK(again->cached);
    CHECK_FALSE(again->ok);
    CHECK(again->log == r->log);
  }

  TEST_CASE("cuda candidates go to nvcc for the configured architecture, references to g++") {
    Fixture f;
    f.options.cuda_arch = "90a";
    eval::CompileService service(f.toolchain, f.options, f.runner);
    REQUIRE(service.compile(f.job("__global__ void k();", eval::Backend::cuda)).ok());
    eval::CompileJob reference{eval::Backend::cuda, true, "int forward();", "", "reference"};
    REQUIRE(service.compile(reference).ok());
    std::vector<std::string> nvcc, gxx;
    for (const auto& c : f.runner.commands) {
      if (c.size() < 3) continue;
      (c[0] == f.toolchain.nvcc ? nvcc : gxx) = c;
    }
    REQUIRE_FALSE(nvcc.empty());
    CHECK(std::find(nvcc.begin(), nvcc.end(), "-gencode=arch=compute_90a,code=sm_90a") != nvcc.end());
    CHECK(nvcc.back() == "-lc10");  // a CPU LibTorch has no torch_cuda to link
    REQUIRE_FALSE(gxx.empty());
    CHECK(gxx[0] == f.toolchain.cxx);
  }

  TEST_CASE("the cuda backend without nvcc is a service error") {
    Fixture f;
    f.toolchain.nvcc.clear();
    eval::CompileService service(f.toolchain, f.options, f.runner);
    auto r = service.compile(f.job("__global__ void k();", eval::Backend::cuda));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message ==
          "the cuda backend needs nvcc, and refinery was built without the CUDA toolkit");
  }
}

TEST_SUITE("eval::CompileService with the real compiler") {
  TEST_CASE("compiles a LibTorch source into a library, then finds it in the cache") {
    auto cache = *base::make_temp_dir(fs::temp_directory_path().string(), "refinery-real-cache");
    base::SystemProcessRunner runner;
    eval::CompileOptions options;
    options.cache_dir = cache;
    options.use_pch = false;
    eval::CompileService service(eval::build_toolchain(), options, runner);
    eval::CompileJob job{eval::Backend::cpu, false,
                         "#include <ATen/ATen.h>\nat::Tensor forward(at::Tensor x) { return x + 1; }\n",
                         "", "candidate"};
    auto first = service.compile(job);
    REQUIRE(first.ok());
    CHECK_MESSAGE(first->ok, first->log);
    CHECK(fs::file_size(first->library_path) > 0);
    CHECK(first->seconds > 0);
    auto second = service.compile(job);
    REQUIRE(second.ok());
    CHECK(second->cached);
    job.source = "#include <ATen/ATen.h>\nat::Tensor forward(at::Tensor x) { return y; }\n";
    auto broken = service.compile(job);
    REQUIRE(broken.ok());
    CHECK_FALSE(broken->ok);
    CHECK(broken->log.find("'y' was not declared in this scope") != std::string::npos);
    fs::remove_all(cache);
  }
}

TEST_SUITE("eval::CompileService with the real nvcc") {
  TEST_CASE("compiles a cuda candidate without a GPU, and reports nvcc's errors") {
    eval::Toolchain toolchain = eval::build_toolchain();
    if (toolchain.nvcc.empty()) {
      MESSAGE("skipped: this build found no nvcc");
      return;
    }
    auto cache = *base::make_temp_dir(fs::temp_directory_path().string(), "refinery-nvcc-cache");
    base::SystemProcessRunner runner;
    eval::CompileOptions options;
    options.cache_dir = cache;
    eval::CompileService service(toolchain, options, runner);
    auto source = base::read_file(std::string(REFINERY_TEST_FIXTURES) + "/candidates/relu_cuda_correct.cu");
    REQUIRE(source.ok());
    // The shim's forward() call is what the real one makes: a cuda candidate links as a whole.
    std::string shim = "\n#include <vector>\nextern \"C\" int refinery_probe(const void* in) {\n"
                       "  forward((*static_cast<const std::vector<at::Tensor>*>(in))[0]);\n  return 0;\n}\n";
    auto ok = service.compile({eval::Backend::cuda, false, *source, shim, "candidate"});
    REQUIRE(ok.ok());
    CHECK_MESSAGE(ok->ok, ok->log);
    CHECK(ok->command.find("-gencode=arch=compute_90a,code=sm_90a") != std::string::npos);
    auto broken = service.compile({eval::Backend::cuda, false, *source + "\n__global__ void k() { undeclared(); }\n",
                                   shim, "candidate"});
    REQUIRE(broken.ok());
    CHECK_FALSE(broken->ok);
    CHECK(broken->log.find("identifier \"undeclared\" is undefined") != std::string::npos);
    fs::remove_all(cache);
  }
}
