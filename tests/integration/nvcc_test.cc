// The compile service with the real compilers: nvcc, in its own test binary
// (tests/integration/nvcc_main.cc), which ctest reports skipped without nvcc.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "agent/campaign/extract.h"
#include "base/fs.h"
#include "base/sha256.h"
#include "base/subprocess.h"
#include "eval/build/compiler.h"
#include "eval/build/shim.h"
#include "eval/problems/problem_index.h"

#include <set>

namespace fs = std::filesystem;

namespace {
// A compile service on a fresh cache with this build's toolchain, and the
// honest ReLU candidate's source.
struct RealNvcc {
  ~RealNvcc() { fs::remove_all(cache); }
  // In this order: the service is made with the options, which name the cache.
  std::string cache = *base::make_temp_dir(fs::temp_directory_path().string(), "refinery-nvcc-cache");
  eval::Toolchain toolchain = eval::build_toolchain();
  base::SystemProcessSpawner spawner;
  eval::CompileOptions options = [this] {
    eval::CompileOptions o;
    o.cache_dir = cache;
    return o;
  }();
  eval::CompileService service{toolchain, options, spawner};
  std::string source = [] {
    auto text = base::read_file(std::string(REFINERY_TEST_FIXTURES) + "/candidates/relu_cuda_correct.cu");
    REQUIRE(text.ok());
    return *text;
  }();
};

std::vector<std::string> step_names(const eval::CompiledLibrary& c) {
  std::vector<std::string> names;
  for (const auto& [name, seconds] : c.steps) names.push_back(name);
  return names;
}
}  // namespace

TEST_SUITE("eval::CompileService with the real nvcc") {
  TEST_CASE("compiles a cuda candidate without a GPU, and reports nvcc's errors") {
    RealNvcc t;
    // The shim's forward() call is what the real one makes: a cuda candidate links as a whole.
    std::string shim =
        "\n#include <vector>\nextern \"C\" int refinery_probe(const void* in) {\n"
        "  forward((*static_cast<const std::vector<at::Tensor>*>(in))[0]);\n  return 0;\n}\n";
    auto ok = t.service.compile({eval::Backend::cuda, eval::LanguageId::cuda_cxx, false, t.source, shim, "candidate"});
    REQUIRE(ok.ok());
    CHECK_MESSAGE(ok->ok, ok->log);
    CHECK(ok->command.find("-gencode=arch=compute_90a,code=sm_90a") != std::string::npos);
    CHECK(ok->headers.empty());  // ATen/core/Tensor.h: nothing to make lean
    CHECK(step_names(*ok) == std::vector<std::string>{"plan", "host front end", "device", "host compile and link"});
    // The same kernel under <torch/extension.h> compiles against the lean headers.
    std::string body = t.source;
    body.replace(body.find("#include <ATen/core/Tensor.h>"), 29, "#include <torch/extension.h>");
    auto lean = t.service.compile({eval::Backend::cuda, eval::LanguageId::cuda_cxx, false, body, shim, "candidate"});
    REQUIRE(lean.ok());
    CHECK_MESSAGE(lean->ok, lean->log);
    CHECK(lean->headers == "lean");
    auto broken = t.service.compile({eval::Backend::cuda, eval::LanguageId::cuda_cxx, false,
                                     t.source + "\n__global__ void k() { undeclared(); }\n", shim, "candidate"});
    REQUIRE(broken.ok());
    CHECK_FALSE(broken->ok);
    CHECK(broken->log.find("identifier \"undeclared\" is undefined") != std::string::npos);
  }
}

TEST_SUITE("eval::CompileService with the real nvcc") {
  TEST_CASE("every step of nvcc runs in the sandbox: a file outside the view is a compile error quoting none of it") {
    RealNvcc t;
    const std::string secret = "refinery-nvcc-sandbox-secret-91c2";
    const std::string secret_path = t.cache + "/secret.h";
    REQUIRE(base::write_file(secret_path, "#error " + secret + "\n").ok());
    std::string shadow;
    if (std::ifstream f("/etc/shadow"); f) std::getline(f, shadow);
    for (const std::string& path : {secret_path, std::string("/etc/shadow")}) {
      auto lib = t.service.compile({eval::Backend::cuda, eval::LanguageId::cuda_cxx, false,
                                    "#include <" + path + ">\n" + t.source, "", "candidate"});
      REQUIRE(lib.ok());
      INFO(lib->log);
      CHECK_FALSE(lib->ok);
      CHECK(lib->log.find(fs::path(path).filename().string() + ": No such file or directory") != std::string::npos);
      CHECK(lib->log.find(secret) == std::string::npos);
      if (!shadow.empty()) CHECK(lib->log.find(shadow) == std::string::npos);
    }
    // Nor can the host code's assembler embed it.
    auto incbin = t.service.compile({eval::Backend::cuda, eval::LanguageId::cuda_cxx, false,
                                     t.source + "\nasm(\".incbin \\\"" + secret_path + "\\\"\");\n", "", "candidate"});
    REQUIRE(incbin.ok());
    if (incbin->ok) {
      auto bytes = base::read_file(incbin->library_path);
      REQUIRE(bytes.ok());
      CHECK(bytes->find(secret) == std::string::npos);
    }
    CHECK(incbin->log.find(secret) == std::string::npos);
  }
}

TEST_SUITE("eval::CompileService with the real nvcc") {
  TEST_CASE("the quickstart's fused GEMM kernels compile with nvcc, as a GPU host's campaign compiles them") {
    // The quickstart's level2 answers are written for the GPU (their CUDA path is what
    // makes fast_1 rise there) and only their host path runs on cpu: nvcc checks the rest.
    RealNvcc t;
    const eval::ProblemIndex index(std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/problems");
    std::ifstream in(std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/configs/quickstart-responses.jsonl");
    std::set<std::string> sources;
    int compiled = 0;
    for (std::string line; std::getline(in, line);) {
      const auto j = nlohmann::json::parse(line);
      const std::string key = j["key"];
      if (key.find("/level2/") == std::string::npos) continue;
      const auto code = agent::extract_code(j["text"], eval::language(eval::LanguageId::cuda_cxx)).code;
      REQUIRE_MESSAGE(code, key);
      if (!sources.insert(*code).second) continue;
      const std::string id = key.substr(key.find("level2/"), key.find("/s0/") - key.find("level2/"));
      auto problem = index.find(id);
      REQUIRE_MESSAGE(problem.ok(), id);
      auto lib = t.service.compile(
          {eval::Backend::cuda, eval::LanguageId::cuda_cxx, false, *code, eval::make_shim(*problem), "candidate"});
      REQUIRE(lib.ok());
      CHECK_MESSAGE(lib->ok, key, "\n", lib->log);
      ++compiled;
    }
    CHECK(compiled == 5);
  }
}
