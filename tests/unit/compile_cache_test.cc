#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/fs.h"
#include "base/sha256.h"
#include "base/text.h"
#include "eval/compiler.h"
#include "fakes.h"

namespace fs = std::filesystem;

namespace {

// The permission bits of a path, e.g. 0755.
unsigned mode_of(const fs::path& p) { return static_cast<unsigned>(fs::status(p).permissions()) & 0777; }

// Sets the process's umask for one test, and puts it back.
struct Umask {
  explicit Umask(mode_t mask) : saved(::umask(mask)) {}
  ~Umask() { ::umask(saved); }
  mode_t saved;
};

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

  TEST_CASE("a failure that may not be the source's is tried again, then reported but never cached") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.runner);
    auto killed = service.compile(f.job("KILLED forward();"));
    REQUIRE(killed.ok());
    CHECK_FALSE(killed->ok);
    CHECK(killed->log.find("refinery: the compile failed twice for a reason that may not be the source's (the compiler "
                           "was killed by signal 9); not cached") != std::string::npos);
    CHECK(f.runner.runs == 2);
    auto again = service.compile(f.job("KILLED forward();"));
    REQUIRE(again.ok());
    CHECK_FALSE(again->cached);
    CHECK(f.runner.runs == 4);
    auto full = service.compile(f.job("NOSPACE forward();"));
    REQUIRE(full.ok());
    CHECK_FALSE(full->ok);
    CHECK(full->log.find("(No space left on device); not cached") != std::string::npos);
    CHECK_FALSE(service.compile(f.job("NOSPACE forward();"))->cached);
    // An ordinary compile error is compiled once and cached.
    const int before = f.runner.runs;
    CHECK_FALSE(service.compile(f.job("BROKEN forward();"))->ok);
    CHECK(service.compile(f.job("BROKEN forward();"))->cached);
    CHECK(f.runner.runs == before + 1);
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

  TEST_CASE("meta.json records the digest of lib.so, and a hit checks it") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.runner);
    auto first = service.compile(f.job("int forward();"));
    REQUIRE(first.ok());
    CHECK(first->digest == base::sha256_hex("fake library"));
    CHECK(first->cache_note.empty());
    fs::path entry = fs::path(first->library_path).parent_path();
    auto meta = nlohmann::json::parse(*base::read_file((entry / "meta.json").string()));
    CHECK(meta["lib_sha256"] == first->digest);
    auto hit = service.compile(f.job("int forward();"));
    REQUIRE(hit.ok());
    CHECK(hit->cached);
    CHECK(hit->digest == first->digest);
    auto broken = service.compile(f.job("BROKEN forward();"));
    REQUIRE(broken.ok());
    CHECK(broken->digest.empty());
  }

  TEST_CASE("a tampered lib.so is not loaded: it is named, removed and compiled again") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.runner);
    auto first = service.compile(f.job("int forward();"));
    REQUIRE(first.ok());
    REQUIRE(base::write_file(first->library_path, "fake librarz").ok());  // same size, one byte changed
    auto again = service.compile(f.job("int forward();"));
    REQUIRE(again.ok());
    const std::string note = "refinery: cache object objects/" + first->key.substr(0, 2) + "/" + first->key +
                             ": lib.so does not match its recorded digest; recompiled";
    CHECK(again->cache_note == note);
    CHECK(again->log.rfind(note + "\n", 0) == 0);
    CHECK_FALSE(again->cached);
    CHECK(again->ok);
    CHECK(f.runner.compiles == 2);
    CHECK(again->library_path == first->library_path);
    CHECK(again->digest == *base::sha256_file_hex(again->library_path));
    CHECK(again->digest == first->digest);
    // The entry stored again is sound, and its log does not carry the note.
    auto hit = service.compile(f.job("int forward();"));
    REQUIRE(hit.ok());
    CHECK(hit->cached);
    CHECK(hit->cache_note.empty());
    CHECK(hit->log.find("refinery: cache object") == std::string::npos);
  }

  TEST_CASE("an entry whose meta.json has no digest, or whose lib.so is gone, is compiled again") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.runner);
    auto first = service.compile(f.job("int forward();"));
    REQUIRE(first.ok());
    const std::string object = "objects/" + first->key.substr(0, 2) + "/" + first->key;
    fs::path meta_path = fs::path(first->library_path).parent_path() / "meta.json";
    auto meta = nlohmann::json::parse(*base::read_file(meta_path.string()));
    meta.erase("lib_sha256");
    REQUIRE(base::write_file(meta_path.string(), meta.dump()).ok());
    auto no_digest = service.compile(f.job("int forward();"));
    REQUIRE(no_digest.ok());
    CHECK(no_digest->cache_note ==
          "refinery: cache object " + object + ": meta.json records no digest of lib.so; recompiled");
    CHECK_FALSE(no_digest->cached);
    CHECK(no_digest->digest == *base::sha256_file_hex(no_digest->library_path));

    fs::remove(first->library_path);
    auto missing = service.compile(f.job("int forward();"));
    REQUIRE(missing.ok());
    CHECK(missing->cache_note == "refinery: cache object " + object + ": lib.so is missing; recompiled");
    CHECK_FALSE(missing->cached);
    CHECK(fs::exists(missing->library_path));

    REQUIRE(base::write_file(meta_path.string(), "{not json").ok());
    auto garbled = service.compile(f.job("int forward();"));
    REQUIRE(garbled.ok());
    CHECK(garbled->cache_note == "refinery: cache object " + object + ": meta.json is not a compile record; recompiled");
    CHECK(f.runner.compiles == 4);
  }

  TEST_CASE("a fresh entry is 0755 and 0644 throughout, even under umask 0") {
    Fixture f;
    f.options.use_pch = true;
    Umask open_umask(0);
    eval::CompileService service(f.toolchain, f.options, f.runner);
    auto r = service.compile(f.job("int forward();"));
    REQUIRE(r.ok());
    fs::path entry = fs::path(r->library_path).parent_path();
    CHECK(mode_of(entry) == 0755);
    CHECK(mode_of(entry.parent_path()) == 0755);                 // objects/<kk>
    CHECK(mode_of(entry.parent_path().parent_path()) == 0755);   // objects
    CHECK(mode_of(fs::path(f.cache) / "tmp") == 0755);
    int files = 0;
    for (const auto& e : fs::recursive_directory_iterator(entry)) {
      CHECK_MESSAGE(mode_of(e.path()) == (e.is_directory() ? 0755u : 0644u), e.path().string());
      ++files;
    }
    CHECK(files == 4);  // candidate.cpp, lib.so, compile.log, meta.json
    // The precompiled header every compile includes, too.
    int pch_files = 0;
    for (const auto& e : fs::recursive_directory_iterator(fs::path(f.cache) / "pch")) {
      CHECK_MESSAGE(mode_of(e.path()) == (e.is_directory() ? 0755u : 0644u), e.path().string());
      pch_files += e.is_regular_file();
    }
    CHECK(pch_files == 3);  // the header, its .gch and the lock
  }

  TEST_CASE("a compile that hits a cap is a compile error naming it, compiled once and cached") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.runner);
    auto bomb = service.compile(f.job("MEMORY_BOMB forward();"));
    REQUIRE(bomb.ok());
    CHECK_FALSE(bomb->ok);
    CHECK(base::ends_with(bomb->log, "\nrefinery: the compile exceeded its memory cap (6 GiB)"));
    CHECK(bomb->log.find("not cached") == std::string::npos);
    CHECK(f.runner.runs == 1);  // not tried again as if the machine were short of memory
    auto again = service.compile(f.job("MEMORY_BOMB forward();"));
    REQUIRE(again.ok());
    CHECK(again->cached);
    CHECK(again->log == bomb->log);
    CHECK(f.runner.runs == 1);
    // Other caps are other keys: a larger cap compiles it again.
    f.options.sandbox.caps.memory_bytes = 8ull << 30;
    eval::CompileService larger(f.toolchain, f.options, f.runner);
    auto retried = larger.compile(f.job("MEMORY_BOMB forward();"));
    REQUIRE(retried.ok());
    CHECK_FALSE(retried->cached);
    CHECK(retried->key != bomb->key);
    CHECK(base::ends_with(retried->log, "memory cap (8 GiB)"));
  }

  TEST_CASE("every compile step runs in the sandbox: the toolchain and refinery's headers read-only, its own folder "
            "writable, under the caps") {
    Fixture f;
    f.options.use_pch = true;
    f.options.sandbox.read_only = {"/opt/host-compiler"};
    eval::CompileService service(f.toolchain, f.options, f.runner);
    REQUIRE(service.compile(f.job("int forward();")).ok());
    REQUIRE(service.compile(f.job("__global__ void k();", eval::Backend::cuda)).ok());
    REQUIRE(f.runner.spawns.size() >= 5);  // two versions, the header, g++, nvcc's plan and nvcc
    for (const auto& o : f.runner.spawns) {
      INFO(o.argv[0], " ", (o.argv.size() > 1 ? o.argv[1] : ""));
      REQUIRE(o.sandbox);
      const auto& ro = o.sandbox->read_only;
      for (const char* path : {"/opt/torch/include", "/opt/torch/lib", "/usr/local/cuda", "/opt/host-compiler",
                               "/etc/ld.so.cache"})
        CHECK(std::find(ro.begin(), ro.end(), path) != ro.end());
      CHECK(std::find(o.sandbox->system.begin(), o.sandbox->system.end(), "/etc") == o.sandbox->system.end());
      CHECK(o.sandbox->devices == std::vector<std::string>{"null"});
      CHECK(o.sandbox->oom_score_adj == 1000);
      CHECK(o.sandbox->require_every_layer);
      // Nothing of the cache but what this step needs: its own folder, refinery's headers, the precompiled header.
      for (const auto& path : ro)
        if (base::starts_with(path, f.cache))
          CHECK((path.find("/include/") != std::string::npos || path.find("/pch/") != std::string::npos));
      if (o.argv.size() == 2 && o.argv[1] == "--version") {
        CHECK(o.sandbox->read_write.empty());
      } else {
        CHECK(o.sandbox->read_write == std::vector<std::string>{o.cwd});
        CHECK(base::starts_with(o.cwd, f.cache + "/tmp/"));
      }
      CHECK(std::find(o.env.begin(), o.env.end(), "HOME=/tmp") != o.env.end());
      bool memory_cap = false;
      for (const auto& l : o.limits) memory_cap = memory_cap || (l.resource == RLIMIT_AS && l.value == 6ull << 30);
      CHECK(memory_cap);
    }
  }

  TEST_CASE("with the sandbox off, compiles run as refinery's user but under the same caps") {
    Fixture f;
    f.options.sandbox.enabled = false;
    eval::CompileService service(f.toolchain, f.options, f.runner);
    REQUIRE(service.compile(f.job("int forward();")).ok());
    for (const auto& o : f.runner.spawns) {
      CHECK_FALSE(o.sandbox);
      CHECK_FALSE(o.limits.empty());
    }
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
