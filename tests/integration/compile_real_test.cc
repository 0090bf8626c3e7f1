// The compile service with the real compilers: g++ against this build's
// LibTorch, and nvcc where the build found one.
#include <doctest/doctest.h>

#include <filesystem>

#include "base/fs.h"
#include "base/sha256.h"
#include "base/subprocess.h"
#include "eval/compiler.h"

namespace fs = std::filesystem;

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

