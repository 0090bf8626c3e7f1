#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <nlohmann/json.hpp>

#include "base/fs.h"
#include "base/sha256.h"
#include "base/text.h"
#include "eval/build/compiler.h"
#include "eval/sandbox/sandbox.h"
#include "fakes.h"

namespace fs = std::filesystem;

namespace {

// The permission bits of a path, e.g. 0755.
unsigned mode_of(const fs::path& p) {
  return static_cast<unsigned>(fs::status(p).permissions()) & 0777;
}

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
    return eval::CompileJob{backend, eval::language_for(backend), false, source, "// shim\n", "candidate"};
  }
  std::string cache;
  eval::Toolchain toolchain;
  eval::CompileOptions options;
  fakes::FakeCompiler spawner;
};

}  // namespace

TEST_SUITE("eval::CompileService") {
  TEST_CASE("a repeated compile is a cache lookup") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto first = service.compile(f.job("int forward();"));
    REQUIRE(first.ok());
    CHECK(first->ok);
    CHECK_FALSE(first->cached);
    CHECK(fs::exists(first->library_path));
    auto second = service.compile(f.job("int forward();"));
    REQUIRE(second.ok());
    CHECK(second->cached);
    CHECK(second->library_path == first->library_path);
    CHECK(f.spawner.compiles == 1);
  }

  TEST_CASE("the key covers the source, the compiler version and the backend") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.spawner);
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
    eval::CompileService service(f.toolchain, f.options, f.spawner);
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

  TEST_CASE("a secret the compiler quotes is redacted before the log is stored") {
    Fixture f;
    f.options.secrets = {"sk-test-compile-secret", "pw42"};
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto r = service.compile(f.job("QUOTE(environ: KEY=sk-test-compile-secret PASS=pw42) forward();"));
    REQUIRE(r.ok());
    CHECK_FALSE(r->ok);
    CHECK(r->log.find("error: environ: KEY=[REDACTED] PASS=[REDACTED]") != std::string::npos);
    fs::path entry = fs::path(f.cache) / "objects" / r->key.substr(0, 2) / r->key;
    for (const auto& e : fs::recursive_directory_iterator(entry)) {
      if (e.path().filename() == "candidate.cpp") continue;  // the source as the model wrote it
      auto text = base::read_file(e.path().string());
      REQUIRE(text.ok());
      CHECK_MESSAGE(text->find("sk-test-compile-secret") == std::string::npos, e.path());
      CHECK_MESSAGE(text->find("pw42") == std::string::npos, e.path());
    }
    auto hit = service.compile(f.job("QUOTE(environ: KEY=sk-test-compile-secret PASS=pw42) forward();"));
    REQUIRE(hit.ok());
    CHECK(hit->cached);
    CHECK(hit->log == r->log);
  }

  TEST_CASE("a failure that may not be the source's is tried again, then reported but never cached") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto killed = service.compile(f.job("KILLED forward();"));
    REQUIRE(killed.ok());
    CHECK_FALSE(killed->ok);
    CHECK(killed->log.find("refinery: the compile failed twice for a reason that may not be the source's (the compiler "
                           "was killed by signal 9); not cached") != std::string::npos);
    CHECK(f.spawner.runs == 2);
    auto again = service.compile(f.job("KILLED forward();"));
    REQUIRE(again.ok());
    CHECK_FALSE(again->cached);
    CHECK(f.spawner.runs == 4);
    auto full = service.compile(f.job("NOSPACE forward();"));
    REQUIRE(full.ok());
    CHECK_FALSE(full->ok);
    CHECK(full->log.find("(No space left on device); not cached") != std::string::npos);
    CHECK_FALSE(service.compile(f.job("NOSPACE forward();"))->cached);
    // An ordinary compile error is compiled once and cached.
    const int before = f.spawner.runs;
    CHECK_FALSE(service.compile(f.job("BROKEN forward();"))->ok);
    CHECK(service.compile(f.job("BROKEN forward();"))->cached);
    CHECK(f.spawner.runs == before + 1);
  }

  TEST_CASE("cuda candidates go to nvcc for the configured architecture, references to g++") {
    Fixture f;
    f.options.cuda_arch = "90a";
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    REQUIRE(service.compile(f.job("__global__ void k();", eval::Backend::cuda)).ok());
    eval::CompileJob reference{eval::Backend::cuda, eval::LanguageId::cxx, true, "int forward();", "", "reference"};
    REQUIRE(service.compile(reference).ok());
    std::vector<std::string> nvcc, gxx;
    for (const auto& c : f.spawner.commands) {
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
    eval::CompileService service(f.toolchain, f.options, f.spawner);
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
    eval::CompileService service(f.toolchain, f.options, f.spawner);
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
    CHECK(f.spawner.compiles == 2);
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
    eval::CompileService service(f.toolchain, f.options, f.spawner);
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
    CHECK(garbled->cache_note ==
          "refinery: cache object " + object + ": meta.json is not a compile record; recompiled");
    CHECK(f.spawner.compiles == 4);
  }

  TEST_CASE(
      "a fresh entry is 0700 and 0600 throughout, even under umask 0; the headers compilers read are 0755 and 0644") {
    Fixture f;
    f.options.use_pch = true;
    f.options.cache_dir = f.cache + "/fresh";  // made by the service
    Umask open_umask(0);
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto r = service.compile(f.job("int forward();"));
    REQUIRE(r.ok());
    fs::path entry = fs::path(r->library_path).parent_path();
    CHECK(mode_of(entry) == 0700);
    CHECK(mode_of(entry.parent_path()) == 0700);                // objects/<kk>
    CHECK(mode_of(entry.parent_path().parent_path()) == 0700);  // objects
    CHECK(mode_of(f.options.cache_dir) == 0700);
    CHECK(mode_of(f.options.cache_dir + "/tmp") == 0700);
    // What every compile's sandbox reads as another uid: LibTorch's and refinery's headers.
    for (const char* shared : {"pch", "include"})
      CHECK_MESSAGE(mode_of(f.options.cache_dir + "/" + shared) == 0755, shared);
    int files = 0;
    for (const auto& e : fs::recursive_directory_iterator(entry)) {
      CHECK_MESSAGE(mode_of(e.path()) == (e.is_directory() ? 0700u : 0600u), e.path().string());
      ++files;
    }
    CHECK(files == 5);  // candidate.cpp, lib.so, compile.log, meta.json, preprocessed.txt
    // The precompiled header every compile includes, and refinery's own
    // headers: readable by the compilers' sandbox, writable by refinery alone.
    int pch_files = 0, headers = 0;
    for (const auto& e : fs::recursive_directory_iterator(fs::path(f.options.cache_dir) / "pch")) {
      CHECK_MESSAGE(mode_of(e.path()) == (e.is_directory() ? 0755u : 0644u), e.path().string());
      pch_files += e.is_regular_file();
    }
    CHECK(pch_files == 3);  // the header, its .gch and the lock
    for (const auto& e : fs::recursive_directory_iterator(fs::path(f.options.cache_dir) / "include")) {
      CHECK_MESSAGE(mode_of(e.path()) == (e.is_directory() ? 0755u : 0644u), e.path().string());
      headers += e.is_regular_file();
    }
    CHECK(headers > 1);
  }

  TEST_CASE("a cache an older refinery left readable by all is made private; a root that exists is left as it is") {
    Fixture f;
    Umask open_umask(0);
    fs::permissions(f.cache, static_cast<fs::perms>(0755));
    for (const char* own : {"objects", "pch", "include", "tmp"}) {
      fs::create_directories(fs::path(f.cache) / own);
      fs::permissions(fs::path(f.cache) / own, static_cast<fs::perms>(0755));
    }
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    REQUIRE(service.compile(f.job("int forward();")).ok());
    for (const char* own : {"objects", "tmp"}) CHECK_MESSAGE(mode_of(fs::path(f.cache) / own) == 0700, own);
    for (const char* shared : {"pch", "include"}) CHECK_MESSAGE(mode_of(fs::path(f.cache) / shared) == 0755, shared);
    CHECK(mode_of(f.cache) == 0755);  // --cache-dir may name a folder that is not refinery's alone
  }

  TEST_CASE("a compile that hits a cap is a compile error naming it, compiled once and cached") {
    Fixture f;
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto bomb = service.compile(f.job("MEMORY_BOMB forward();"));
    REQUIRE(bomb.ok());
    CHECK_FALSE(bomb->ok);
    CHECK(base::ends_with(bomb->log, "\nrefinery: the compile exceeded its memory cap (6 GiB)"));
    CHECK(bomb->log.find("not cached") == std::string::npos);
    CHECK(f.spawner.runs == 1);  // not tried again as if the machine were short of memory
    auto again = service.compile(f.job("MEMORY_BOMB forward();"));
    REQUIRE(again.ok());
    CHECK(again->cached);
    CHECK(again->log == bomb->log);
    CHECK(f.spawner.runs == 1);
    // Other caps are other keys: a larger cap compiles it again.
    f.options.sandbox.caps.memory_bytes = 8ull << 30;
    eval::CompileService larger(f.toolchain, f.options, f.spawner);
    auto retried = larger.compile(f.job("MEMORY_BOMB forward();"));
    REQUIRE(retried.ok());
    CHECK_FALSE(retried->cached);
    CHECK(retried->key != bomb->key);
    CHECK(base::ends_with(retried->log, "memory cap (8 GiB)"));
  }

  TEST_CASE(
      "every compile step runs in the sandbox: the toolchain and refinery's headers read-only, its own folder "
      "writable, under the caps, in a memory cgroup capped at the memory cap") {
    Fixture f;
    f.options.use_pch = true;
    f.options.sandbox.read_only = {"/opt/host-compiler"};
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    REQUIRE(service.compile(f.job("int forward();")).ok());
    REQUIRE(service.compile(f.job("__global__ void k();", eval::Backend::cuda)).ok());
    REQUIRE(f.spawner.spawns.size() >= 5);  // two versions, the header, g++, nvcc's plan and nvcc
    for (const auto& o : f.spawner.spawns) {
      INFO(o.argv[0], " ", (o.argv.size() > 1 ? o.argv[1] : ""));
      auto* sandbox = dynamic_cast<const eval::SandboxStarter*>(o.start.get());
      REQUIRE(sandbox);
      const eval::SandboxView& view = sandbox->view();
      const auto& ro = view.read_only;
      for (const char* path :
           {"/opt/torch/include", "/opt/torch/lib", "/usr/local/cuda", "/opt/host-compiler", "/etc/ld.so.cache"})
        CHECK(std::find(ro.begin(), ro.end(), path) != ro.end());
      CHECK(std::find(view.system.begin(), view.system.end(), "/etc") == view.system.end());
      CHECK(view.devices == std::vector<std::string>{"null"});
      CHECK(view.oom_score_adj == 1000);
      CHECK(view.require_every_layer);
      // Nothing of the cache but what this step needs: its own folder, refinery's headers, the precompiled header.
      for (const auto& path : ro)
        if (base::starts_with(path, f.cache))
          CHECK((path.find("/include/") != std::string::npos || path.find("/pch/") != std::string::npos));
      if (o.argv.size() == 2 && o.argv[1] == "--version") {
        CHECK(view.read_write.empty());
      } else {
        CHECK(view.read_write == std::vector<std::string>{o.cwd});
        CHECK(base::starts_with(o.cwd, f.cache + "/tmp/"));
      }
      CHECK(std::find(o.env.begin(), o.env.end(), "HOME=/tmp") != o.env.end());
      bool memory_cap = false;
      for (const auto& l : o.limits) memory_cap = memory_cap || (l.resource == RLIMIT_AS && l.value == 6ull << 30);
      CHECK(memory_cap);
      // And the step's processes together, in a memory cgroup of its own where the host allows one.
      CHECK(sandbox->memory_cgroup_bytes() == 6ull << 30);
    }
  }

  TEST_CASE("with the sandbox off, compiles run as refinery's user but under the same caps") {
    Fixture f;
    f.options.sandbox.enabled = false;
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    REQUIRE(service.compile(f.job("int forward();")).ok());
    for (const auto& o : f.spawner.spawns) {
      CHECK_FALSE(o.start);
      CHECK_FALSE(o.limits.empty());
    }
  }

  TEST_CASE("the cuda backend without nvcc is a service error") {
    Fixture f;
    f.toolchain.nvcc.clear();
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto r = service.compile(f.job("__global__ void k();", eval::Backend::cuda));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "the cuda backend needs nvcc, and refinery was built without the CUDA toolkit");
  }
}

namespace {

namespace chrono = std::chrono;

// An entry of the cache at root: objects/<kk>/<key>/lib.so of `bytes` bytes,
// last used `age` before now.
std::string plant_entry(const std::string& root, const std::string& key, size_t bytes, chrono::seconds age) {
  fs::path dir = fs::path(root) / "objects" / key.substr(0, 2) / key;
  fs::create_directories(dir);
  REQUIRE(base::write_file((dir / "lib.so").string(), std::string(bytes, 'x')).ok());
  fs::last_write_time(dir, fs::file_time_type::clock::now() - age);
  return dir.string();
}

struct CacheFolder {
  CacheFolder() : root(*base::make_temp_dir(fs::temp_directory_path().string(), "refinery-evict-test")) {
    fs::create_directories(fs::path(root) / "objects");
    fs::create_directories(fs::path(root) / "tmp");
  }
  ~CacheFolder() { fs::remove_all(root); }
  std::string root;
};

}  // namespace

TEST_SUITE("eval::CompileCache") {
  TEST_CASE("over its limit, the cache evicts the least recently used entries first, down to 90% of it") {
    CacheFolder c;
    std::vector<std::string> entries;
    for (int i = 0; i < 10; ++i)  // entry 0 is the oldest
      entries.push_back(plant_entry(c.root, "k" + std::to_string(i) + "aaaa", 100 << 10, chrono::seconds(1000 - i)));
    const uint64_t one = eval::CompileCache::folder_bytes(entries[0]);
    eval::CompileCache cache(c.root, {5 * one, 1 << 30});
    auto e = cache.evict(chrono::system_clock::now());
    CHECK(e.ran);
    CHECK(e.bytes_before == 10 * one);
    CHECK(e.evicted == 6);  // 4 entries are within 90% of 5
    CHECK(e.bytes_after == 4 * one);
    for (int i = 0; i < 10; ++i) CHECK_MESSAGE(fs::exists(entries[i]) == (i >= 6), i);
    // Within the limit, nothing goes.
    CHECK(cache.evict(chrono::system_clock::now()).evicted == 0);
    for (const auto& left : fs::directory_iterator(fs::path(c.root) / "tmp")) FAIL("left in tmp/: " << left.path());
  }

  TEST_CASE("a lease records the use, and a leased entry is never evicted, by this process or another") {
    CacheFolder c;
    const std::string old = plant_entry(c.root, "aa01", 4096, chrono::hours(5));
    const std::string young = plant_entry(c.root, "bb01", 4096, chrono::seconds(10));
    eval::CompileCache cache(c.root, {1, 1 << 30});  // every entry is over the limit
    {
      eval::Lease held = cache.lease(old);
      REQUIRE(held);
      CHECK(fs::last_write_time(old) > fs::last_write_time(young));  // the use is recorded
      auto e = cache.evict(chrono::system_clock::now());
      CHECK(e.in_use == 1);
      CHECK(e.evicted == 1);
      CHECK(fs::exists(old));
      CHECK_FALSE(fs::exists(young));
      // Another process's lease is a lock on the same folder: a second open file description here is one.
      eval::CompileCache other(c.root, {1, 1 << 30});
      CHECK(other.evict(chrono::system_clock::now()).in_use == 1);
      CHECK(fs::exists(old));
    }
    CHECK(cache.evict(chrono::system_clock::now()).evicted == 1);
    CHECK_FALSE(fs::exists(old));
    CHECK_FALSE(cache.lease(old));  // no entry, no lease
  }

  TEST_CASE("an entry evicted while a lease on it was being taken gives no lease") {
    CacheFolder c;
    const std::string entry = plant_entry(c.root, "cc01", 4096, chrono::seconds(1));
    // An eviction in progress: the entry locked, about to be renamed away.
    int evicting = open(entry.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(flock(evicting, LOCK_EX) == 0);
    eval::CompileCache cache(c.root, {});
    auto waiting = std::async(std::launch::async, [&] { return cache.lease(entry); });
    CHECK(waiting.wait_for(chrono::milliseconds(100)) == std::future_status::timeout);  // waits on the lock
    fs::rename(entry, fs::path(c.root) / "tmp" / "evicted-cc01");
    close(evicting);
    CHECK_FALSE(waiting.get());
  }

  TEST_CASE("an entry over the per-object cap goes first, however recently used") {
    CacheFolder c;
    const std::string big = plant_entry(c.root, "dd01", 64 << 10, chrono::seconds(0));
    const std::string small = plant_entry(c.root, "ee01", 4096, chrono::hours(1));
    eval::CompileCache cache(c.root, {1 << 30, 32 << 10});
    CHECK(cache.oversize(big) ==
          "the compile's output is 64.0 KiB, more than the 32.0 KiB the cache keeps for one compile");
    CHECK_FALSE(cache.oversize(small));
    auto e = cache.evict(chrono::system_clock::now());
    CHECK(e.evicted == 1);
    CHECK_FALSE(fs::exists(big));
    CHECK(fs::exists(small));
  }

  TEST_CASE("temporary folders of compiles that died more than a day ago are removed") {
    CacheFolder c;
    const fs::path tmp = fs::path(c.root) / "tmp";
    fs::create_directories(tmp / "compile-old");
    fs::create_directories(tmp / "compile-live");
    fs::create_directories(tmp / "evicted-half-deleted");
    const auto now = chrono::system_clock::now();
    fs::last_write_time(tmp / "compile-old", fs::file_time_type::clock::now() - chrono::hours(25));
    eval::CompileCache cache(c.root, {});
    auto e = cache.evict(now);
    CHECK(e.stale_temporaries == 1);
    CHECK_FALSE(fs::exists(tmp / "compile-old"));
    CHECK(fs::exists(tmp / "compile-live"));
    CHECK_FALSE(fs::exists(tmp / "evicted-half-deleted"));
    // A day later, by the clock it is given, the live one is stale too.
    CHECK(cache.evict(now + chrono::hours(25)).stale_temporaries == 1);
  }

  TEST_CASE("a store walks the cache when this process's count says it may be over its limit, or ten minutes on") {
    CacheFolder c;
    const std::string first = plant_entry(c.root, "ab01", 4096, chrono::hours(3));
    const uint64_t one = eval::CompileCache::folder_bytes(first);
    eval::CompileCache cache(c.root, {3 * one - 1, 1 << 30});  // two entries, not three
    const auto now = chrono::system_clock::now();
    CHECK(cache.after_store(first, now).ran);  // the first store walks: this process knows nothing yet
    // Another process stores three more: this process's count does not know.
    for (const char* key : {"ac01", "ad01", "ae01"}) plant_entry(c.root, key, 4096, chrono::hours(2));
    const std::string mine = plant_entry(c.root, "af01", 4096, chrono::seconds(0));
    CHECK_FALSE(cache.after_store(mine, now + chrono::minutes(1)).ran);  // two entries by its count: within
    CHECK(fs::exists(first));
    const std::string more = plant_entry(c.root, "ag01", 4096, chrono::seconds(0));
    auto e = cache.after_store(more, now + chrono::minutes(2));  // three by its count: may be over
    CHECK(e.ran);
    CHECK(e.bytes_before == 6 * one);
    CHECK(e.evicted == 4);  // down to 90% of the limit: the two newest stay
    CHECK_FALSE(fs::exists(first));
    CHECK(fs::exists(more));
    // However little it stored, a process walks the cache ten minutes after its last walk.
    eval::CompileCache roomy(c.root, {100 * one, 1 << 30});
    CHECK(roomy.after_store(more, now).ran);
    CHECK_FALSE(roomy.after_store(more, now + chrono::minutes(9)).ran);
    CHECK(roomy.after_store(more, now + chrono::minutes(10)).ran);
  }

  TEST_CASE("one process evicts at a time; the others skip it") {
    CacheFolder c;
    plant_entry(c.root, "ff01", 4096, chrono::hours(1));
    int lock = open((fs::path(c.root) / "evict.lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    REQUIRE(flock(lock, LOCK_EX) == 0);
    eval::CompileCache cache(c.root, {1, 1 << 30});
    CHECK_FALSE(cache.evict(chrono::system_clock::now()).ran);
    close(lock);
    CHECK(cache.evict(chrono::system_clock::now()).evicted == 1);
  }
}

TEST_SUITE("eval::CompileService") {
  TEST_CASE("a compile whose output is over the per-object cap is an error, never stored") {
    Fixture f;
    f.options.limits.max_object_bytes = 1 << 20;
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto r = service.compile(f.job("BIG(2097152) forward();"));
    REQUIRE(r.ok());
    CHECK_FALSE(r->ok);
    CHECK(r->log.find("refinery: the compile's output is 2.0 MiB, more than the 1.0 MiB the cache keeps for one "
                      "compile; not cached") != std::string::npos);
    CHECK(r->digest.empty());
    CHECK(fs::is_empty(fs::path(f.cache) / "objects"));
    CHECK(fs::is_empty(fs::path(f.cache) / "tmp"));
    CHECK_FALSE(service.compile(f.job("BIG(2097152) forward();"))->cached);
  }

  TEST_CASE("the cache keeps within its limit after each store, and never evicts a library still held") {
    Fixture f;
    eval::CompileService probe(f.toolchain, f.options, f.spawner);
    auto sized = probe.compile(f.job("int forward() { return -1; }"));
    REQUIRE(sized.ok());
    const uint64_t one = eval::CompileCache::folder_bytes(fs::path(sized->library_path).parent_path().string());
    sized->lease.reset();
    f.options.limits.max_bytes = 3 * one + one / 2;  // three entries
    eval::CompileService service(f.toolchain, f.options, f.spawner);
    auto held = service.compile(f.job("int forward() { return 0; }"));
    REQUIRE(held.ok());
    std::vector<std::string> paths;
    for (int i = 1; i <= 5; ++i) {
      auto lib = service.compile(f.job("int forward() { return " + std::to_string(i) + "; }"));
      REQUIRE(lib.ok());
      paths.push_back(lib->library_path);
    }
    CHECK(fs::exists(held->library_path));  // the oldest, but held
    CHECK(fs::exists(paths[4]));            // the newest
    CHECK_FALSE(fs::exists(paths[0]));
    CHECK_FALSE(fs::exists(sized->library_path));
    CHECK(eval::CompileCache::folder_bytes(f.cache + "/objects") <= f.options.limits.max_bytes);
    held->lease.reset();
    REQUIRE(service.compile(f.job("int forward() { return 6; }")).ok());
    CHECK_FALSE(fs::exists(held->library_path));
  }

  TEST_CASE("two services sharing a cache: one's eviction never removes what the other is about to load") {
    Fixture f;
    eval::CompileOptions tiny = f.options;
    tiny.limits.max_bytes = 1;  // every store evicts every entry it can
    fakes::FakeCompiler other_spawner;
    eval::CompileService evicting(f.toolchain, tiny, other_spawner);
    eval::CompileService loading(f.toolchain, tiny, f.spawner);
    std::atomic<bool> done{false};
    auto churn = std::async(std::launch::async, [&] {
      for (int i = 0; !done; ++i) (void)evicting.compile(f.job("int forward() { return " + std::to_string(i) + "; }"));
    });
    int loads = 0, failures = 0;
    for (int i = 0; i < 200; ++i) {
      auto lib = loading.compile(f.job("int forward() { return -7; }"));
      REQUIRE(lib.ok());
      REQUIRE(lib->ok);
      // What the judge does with it: read the library and check its digest.
      auto digest = base::sha256_file_hex(lib->library_path);
      if (!digest.ok() || *digest != lib->digest) ++failures;
      ++loads;
    }
    done = true;
    churn.get();
    CHECK(loads == 200);
    CHECK(failures == 0);
  }
}
