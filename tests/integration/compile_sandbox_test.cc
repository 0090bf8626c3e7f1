// The compilers' sandbox with the real g++ (nvcc's side is in nvcc_test.cc)
// and the real Python build: sources that try to read outside the compile's
// view, or to exhaust its caps (its memory cgroup's among them), are compile
// errors that quote nothing secret and name the cap.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "base/cgroup.h"
#include "base/fs.h"
#include "base/text.h"
#include "build_info.h"
#include "eval/build/compiler.h"
#include "memory_cap.h"
#include "test_support.h"

namespace fs = std::filesystem;

namespace {

const std::string kSecret = "refinery-compile-sandbox-secret-5b1e";

// A compile service on a fresh cache; with the precompiled header off, so that
// each test compiles only what it names.
struct Sandboxed {
  eval::CompiledLibrary compile(const std::string& source, eval::CompileService* with = nullptr) {
    eval::CompileService& s = with ? *with : service;
    auto r = s.compile({eval::Backend::cpu, eval::LanguageId::cxx, false, source, "", "candidate"});
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    return *r;
  }
  // In this order: the service is made with the options, which name the cache.
  test_support::TempDir cache{"refinery-sandbox-cache"};
  eval::CompileOptions options = [this] {
    eval::CompileOptions o;
    o.cache_dir = cache.path;
    o.use_pch = false;
    return o;
  }();
  base::SystemProcessSpawner spawner;
  eval::CompileService service{eval::build_toolchain(), options, spawner};
};

// A file holding kSecret at path, removed with this object.
struct SecretFile {
  explicit SecretFile(std::string at) : path(std::move(at)) { REQUIRE(base::write_file(path, kSecret + "\n").ok()); }
  ~SecretFile() { fs::remove(path); }
  std::string path;
};

std::string home() {
  const char* h = std::getenv("HOME");
  return h && *h ? h : "/root";
}

}  // namespace

TEST_SUITE("eval::CompileService in its sandbox") {
  TEST_CASE("an #include of a file outside the compile's view is a compile error that quotes none of it") {
    Sandboxed t;
    SecretFile in_cache(t.cache.path + "/secret.txt");
    SecretFile in_home(home() + "/.refinery-sandbox-test-" + std::to_string(getpid()));
    std::vector<std::string> paths = {in_cache.path, in_home.path, "/etc/shadow", "/etc/passwd"};
    // The first line of /etc/shadow, where this user may read it: it must appear nowhere.
    std::string shadow;
    if (std::ifstream f("/etc/shadow"); f) std::getline(f, shadow);
    for (const auto& path : paths) {
      auto lib = t.compile("#include <" + path + ">\nint forward() { return 0; }\n");
      INFO(path, "\n", lib.log);
      CHECK_FALSE(lib.ok);
      CHECK(lib.log.find(fs::path(path).filename().string() + ": No such file or directory") != std::string::npos);
      CHECK(lib.log.find(kSecret) == std::string::npos);
      if (!shadow.empty()) CHECK(lib.log.find(shadow) == std::string::npos);
    }
  }

  TEST_CASE("the compiler sees neither the cache's other entries nor their logs") {
    Sandboxed t;
    auto first = t.compile("#include \"" + kSecret + ".h\"\n");  // an entry whose log holds the secret
    REQUIRE_FALSE(first.ok);
    const std::string entry = fs::path(first.library_path).parent_path().string();
    REQUIRE(fs::exists(entry + "/compile.log"));
    auto peek = t.compile("#include \"" + entry + "/compile.log\"\n");
    INFO(peek.log);
    CHECK_FALSE(peek.ok);
    CHECK(peek.log.find("No such file or directory") != std::string::npos);
    CHECK(peek.log.find(kSecret) == std::string::npos);
  }

  TEST_CASE("an .incbin of a file outside the view fails, and no library holds its bytes") {
    Sandboxed t;
    SecretFile secret(t.cache.path + "/secret.bin");
    auto lib = t.compile("asm(\".incbin \\\"" + secret.path + "\\\"\");\nint forward() { return 0; }\n");
    INFO(lib.log);
    CHECK_FALSE(lib.ok);
    CHECK(lib.log.find("Error: file not found: ") != std::string::npos);
    CHECK(lib.log.find(kSecret) == std::string::npos);
  }

  TEST_CASE("#include </dev/zero> is a quick compile error (there is no /dev/zero), cached") {
    Sandboxed t;
    auto lib = t.compile("#include </dev/zero>\nint forward() { return 0; }\n");
    INFO(lib.log);
    CHECK_FALSE(lib.ok);
    CHECK(lib.log.find("/dev/zero: No such file or directory") != std::string::npos);
    CHECK(lib.seconds < 30);
    auto again = t.compile("#include </dev/zero>\nint forward() { return 0; }\n");
    CHECK(again.cached);
  }

  TEST_CASE("a compile that exhausts its memory is a compile error naming the memory cap, compiled once and cached") {
    Sandboxed t;
    t.options.sandbox.caps.memory_bytes = 1ull << 30;  // the default is 6 GiB: the same, slower
    eval::CompileService small(eval::build_toolchain(), t.options, t.spawner);
    // An initialiser of 2^40 elements, one macro level at a time.
    std::string bomb = "#define A0 1,\n";
    for (int i = 1; i <= 40; ++i)
      bomb += "#define A" + std::to_string(i) + " A" + std::to_string(i - 1) + " A" + std::to_string(i - 1) + "\n";
    bomb += "int big[] = { A40 };\n";
    auto lib = t.compile(bomb, &small);
    INFO(lib.log);
    CHECK_FALSE(lib.ok);
    CHECK(base::ends_with(lib.log, "refinery: the compile exceeded its memory cap (1 GiB)"));
    CHECK(lib.steps.size() == 1);  // compiled once: not a failure of the machine's
    CHECK(lib.seconds < 60);
    auto again = t.compile(bomb, &small);
    CHECK(again.cached);
    CHECK(again.log == lib.log);
  }

  TEST_CASE("a compile that computes for too long is a compile error naming the CPU time cap") {
    Sandboxed t;
    t.options.sandbox.caps.cpu_seconds = 2;
    eval::CompileService small(eval::build_toolchain(), t.options, t.spawner);
    // 4e10 steps of constant evaluation, each loop within the compiler's own limits.
    const std::string spin =
        "constexpr unsigned long long f() {\n"
        "  unsigned long long s = 0;\n"
        "  for (unsigned long long i = 0; i < 200000; ++i)\n"
        "    for (unsigned long long j = 0; j < 200000; ++j) s += i ^ (s >> 3) ^ j;\n"
        "  return s;\n"
        "}\n"
        "constexpr unsigned long long v = f();\n";
    auto lib = t.compile(spin, &small);
    INFO(lib.log);
    CHECK_FALSE(lib.ok);
    CHECK(base::ends_with(lib.log, "refinery: the compile exceeded its CPU time cap (2 s)"));
    CHECK(t.compile(spin, &small).cached);
  }

  TEST_CASE("a 1 GiB initialised array is a compile error naming the file size cap") {
    Sandboxed t;
    auto lib = t.compile("static char big[1 << 30] = {1};\nextern \"C\" char* big_data() { return big; }\n");
    INFO(lib.log);
    CHECK_FALSE(lib.ok);
    CHECK(base::ends_with(lib.log, "refinery: the compile exceeded its file size cap (256 MiB)"));
    CHECK(fs::is_empty(t.cache.path + "/tmp"));  // nothing of it left behind
  }

  TEST_CASE("an honest compile succeeds, and its entry is refinery's, readable by all, written by none else") {
    Sandboxed t;
    auto lib = t.compile("#include <ATen/ATen.h>\nat::Tensor forward(at::Tensor x) { return x + 1; }\n");
    INFO(lib.log);
    REQUIRE(lib.ok);
    for (const auto& e : fs::recursive_directory_iterator(fs::path(lib.library_path).parent_path())) {
      struct stat st {};
      REQUIRE(lstat(e.path().c_str(), &st) == 0);
      CHECK_MESSAGE(st.st_uid == geteuid(), e.path().string());
      CHECK_MESSAGE((st.st_mode & 07022) == 0, e.path().string());
    }
  }

  TEST_CASE(
      "a build whose processes hold more than the memory cap where no rlimit sees it is a compile error naming "
      "the cap") {
    if (!REFINERY_PYTHON_FOUND) {
      MESSAGE("SKIPPED: refinery was built without a Python whose torch is its LibTorch (python3-torch)");
      return;
    }
    if (base::cgroup_parent().path.empty()) {
      // Then the build runs under its per-process caps alone, and holds what it holds.
      MESSAGE("SKIPPED: no memory cgroup for compile steps here (" << base::cgroup_parent().why_not << ")");
      return;
    }
    Sandboxed t;
    t.options.sandbox.caps.memory_bytes = 1ull << 30;  // importing torch takes 650 MiB of address space
    eval::CompileService small(eval::build_toolchain(), t.options, t.spawner);
    auto r = small.compile({eval::Backend::cpu, eval::LanguageId::python, false,
                            test_support::python_fixture("attack_memfd_build.py"), "", "candidate"});
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    INFO(r->log);
    CHECK_FALSE(r->ok);
    CHECK(base::ends_with(r->log, "refinery: the compile exceeded its memory cap (1 GiB, its cgroup's OOM killer)"));
    CHECK(r->seconds < 30);
    CHECK(memory_cap::cgroups_left("compile") == 0);
  }

  TEST_CASE("an honest compile succeeds in its memory cgroup, which is gone after") {
    Sandboxed t;
    auto lib = t.compile("int forward() { return 1; }\n");
    INFO(lib.log);
    CHECK(lib.ok);
    auto probe = t.service.probe_sandbox();
    REQUIRE(probe.ok());
    if (base::cgroup_parent().path.empty()) {
      MESSAGE("no memory cgroup for compile steps here: " << base::cgroup_parent().why_not);
      CHECK(probe->memory_cgroup_bytes == 0);
      CHECK(probe->no_memory_cgroup_because == base::cgroup_parent().why_not);
    } else {
      CHECK(probe->memory_cgroup_bytes == t.options.sandbox.caps.memory_bytes);
    }
    CHECK(memory_cap::cgroups_left("compile") == 0);
  }

  TEST_CASE("the platform's sandbox is complete here") {
    Sandboxed t;
    auto probe = t.service.probe_sandbox();
    REQUIRE_MESSAGE(probe.ok(), (probe.ok() ? "" : probe.error().message));
    CHECK_MESSAGE(probe->missing.empty(), base::join(probe->missing, "; "));
  }
}
