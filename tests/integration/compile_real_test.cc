// The compile service with the real compilers: g++ against this build's
// LibTorch, and nvcc where the build found one.
#include <ATen/core/Tensor.h>
#include <ATen/ops/full.h>
#include <ATen/ops/ones.h>
#include <dlfcn.h>

#include <filesystem>

#include "base/fs.h"
#include "base/sha256.h"
#include "base/subprocess.h"
#include "eval/build/compiler.h"
#include "eval/build/shim.h"
#include "eval/problems/problem.h"
#include "test_support.h"

// Last: LibTorch (2.x) brings a logging CHECK of its own; doctest's must win.
#include <doctest/doctest.h>

namespace fs = std::filesystem;

TEST_SUITE("eval::CompileService with the real compiler") {
  TEST_CASE("compiles a LibTorch source into a library, then finds it in the cache") {
    auto cache = *base::make_temp_dir(fs::temp_directory_path().string(), "refinery-real-cache");
    base::SystemProcessSpawner spawner;
    eval::CompileOptions options;
    options.cache_dir = cache;
    options.use_pch = false;
    eval::CompileService service(eval::build_toolchain(), options, spawner);
    eval::CompileJob job{eval::Backend::cpu,
                         eval::LanguageId::cxx,
                         false,
                         "#include <ATen/ATen.h>\nat::Tensor forward(at::Tensor x) { return x + 1; }\n",
                         "",
                         "candidate"};
    auto first = service.compile(job);
    REQUIRE(first.ok());
    CHECK_MESSAGE(first->ok, first->log);
    CHECK(fs::file_size(first->library_path) > 0);
    CHECK(first->digest == *base::sha256_file_hex(first->library_path));
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

namespace {

// Calls a library's entry point on one tensor; its one output.
at::Tensor call_entry(const std::string& library, const at::Tensor& x) {
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  REQUIRE_MESSAGE(handle != nullptr, dlerror());
  void* symbol = dlsym(handle, eval::kEntrySymbol);
  REQUIRE(symbol != nullptr);
  auto entry = reinterpret_cast<int (*)(const void*, void*, char*, unsigned long)>(symbol);
  std::vector<at::Tensor> in = {x}, out;
  char error[256] = {0};
  REQUIRE_MESSAGE(entry(&in, &out, error, sizeof error) == 0, error);
  REQUIRE(out.size() == 1);
  return out[0];
}

}  // namespace

TEST_SUITE("eval::CompileService with the real compiler") {
  TEST_CASE("a batch compiles in one unit and gives each source a library of its own entry point") {
    auto cache = *base::make_temp_dir(fs::temp_directory_path().string(), "refinery-batch-cache");
    base::SystemProcessSpawner spawner;
    eval::CompileOptions options;
    options.cache_dir = cache;
    options.use_pch = false;
    eval::CompileService service(eval::build_toolchain(), options, spawner);
    auto problem = eval::load_problem(test_support::fixture_problems_dir() + "/level1/19_relu");
    REQUIRE(problem.ok());
    const std::string shim = eval::make_shim(*problem);
    // Both define the same helper and forward: each lives in a namespace of its own.
    auto job = [&](const std::string& body) {
      return eval::CompileJob{
          eval::Backend::cpu, eval::LanguageId::cxx, true,
          // ATen alone (not torch/torch.h): the batch's own behaviour is the point, and the
          // lighter headers keep this test's four compiles (with no precompiled header) short.
          "#include <ATen/ATen.h>\n#include <vector>\nnamespace { int twice(int v) { return 2 * v; } }\n"
          "at::Tensor forward(at::Tensor x) { " +
              body + " }\n",
          shim, "reference"};
    };
    std::vector<eval::CompileJob> jobs = {job("return x + twice(1);"), job("return x * twice(2);")};
    auto built = service.compile_batch(jobs);
    REQUIRE(built.ok());
    REQUIRE(built->size() == 2);
    for (const auto& lib : *built) {
      CHECK_MESSAGE(lib.ok, lib.log);
      CHECK(lib.headers == "batch");
      CHECK(lib.digest == *base::sha256_file_hex(lib.library_path));
    }
    at::Tensor x = at::ones({3});
    CHECK(call_entry((*built)[0].library_path, x).equal(at::full({3}, 3.0)));
    CHECK(call_entry((*built)[1].library_path, x).equal(at::full({3}, 4.0)));
    auto again = service.compile_batch(jobs);
    REQUIRE(again.ok());
    CHECK((*again)[0].cached);
    CHECK((*again)[1].library_path == (*built)[1].library_path);

    // A broken member: the batch is compiled one by one, and only that one fails, with its own error.
    jobs.push_back(job("return y;"));
    auto broken = service.compile_batch(jobs);
    REQUIRE(broken.ok());
    REQUIRE(broken->size() == 3);
    CHECK((*broken)[0].ok);
    CHECK((*broken)[0].headers != "batch");
    CHECK_FALSE((*broken)[2].ok);
    CHECK((*broken)[2].log.find("'y' was not declared in this scope") != std::string::npos);
    CHECK(call_entry((*broken)[1].library_path, x).equal(at::full({3}, 4.0)));
    fs::remove_all(cache);
  }
}
