// The compile service: turns a candidate or reference source plus the
// generated shim into a shared library the worker can load.
//
// cpu candidates and every reference are compiled with the C++ compiler
// refinery was built with (g++), against the LibTorch refinery was built
// with, using a precompiled header of <torch/torch.h> kept in the cache (a
// cold compile of a LibTorch file costs ~20 s on a laptop core, ~4 s with
// it). cuda candidates are compiled with nvcc for the GPU's architecture;
// this works on a machine without a GPU. A cuda candidate that includes
// <torch/torch.h> or <torch/extension.h> is compiled against lean headers
// where that is safe, and again against the full ones if that fails
// (lean_headers.h): the same verdicts, three to four times sooner.
//
// Results are content-addressed: the key covers the source, the shim, every
// flag, the compiler's version and LibTorch's version, so a repeated compile
// (successful or not) is a lookup. Entries are written to a temporary folder
// and renamed into place, so several processes may share one cache. The cache
// keeps within CompileOptions::limits, least recently used entries first, and
// never removes an entry whose CompiledLibrary is still held, by this process
// or another (compile_cache.h).
//
// The cache is trusted code, private to its owner: the folders of compiled
// candidates (objects/, tmp/) are 0700 and their files 0600 whatever the
// umask (the runner reads no file of it: it gets its library through a sealed
// descriptor; the judge reads the cache as refinery's own uid); refinery's
// headers and the precompiled LibTorch header (include/, pch/) are readable
// by all, since the compilers' sandbox reads them as another uid, and
// writable by refinery alone. meta.json records the SHA-256 of lib.so. A hit
// whose lib.so is missing or no longer matches is removed and compiled again,
// with a note.
//
// Compile logs are stored as they are returned: redacted of the secrets in
// CompileOptions::secrets.
//
// Every compile step (g++, the precompiled header, nvcc and each step of its
// split, a batch, a lean attempt) runs in a sandbox (CompileSandbox): new
// namespaces, another identity, a private root showing only the toolchain,
// LibTorch and the folders that compile needs, read-only, and its own scratch
// folder writable; and under caps on memory, CPU time, file size and
// processes, and (where the host allows one) a memory cgroup of its own that
// holds all its processes together to the memory cap, memfd, tmpfs and SysV
// shared memory included; where none can be made the step runs under its
// per-process caps alone. A compile that hits a cap is a compile error that
// names the cap, cached like any other (docs/judge-and-runner.md, "The
// compilers' sandbox").
//
// compile() is thread-safe. A compile error is a successful call whose
// CompiledLibrary has ok == false; an Error means the service itself failed
// (cannot write the cache, cannot run the compiler).
#pragma once

#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <semaphore>
#include <string>
#include <vector>

#include "base/process_caps.h"
#include "base/redact.h"
#include "base/result.h"
#include "base/subprocess.h"
#include "eval/build/compile_cache.h"
#include "eval/build/language.h"
#include "eval/job.h"

namespace eval {

// What refinery was built against; build_info() fills it from CMake.
struct Toolchain {
  std::string cxx;   // C++ compiler
  std::string nvcc;  // empty when the CUDA toolkit is absent
  std::vector<std::string> torch_includes;
  std::string torch_lib_dir;
  std::vector<std::string> torch_cxx_flags;  // e.g. -D_GLIBCXX_USE_CXX11_ABI=1
  std::string torch_version;
  bool torch_has_cuda = false;
  // The interpreter whose torch is this LibTorch, and its sys.path; empty
  // when refinery was built without one (Python candidates need it).
  std::string python;
  std::vector<std::string> python_path;
};

Toolchain build_toolchain();

// The boundary and the caps of every compile step.
struct CompileSandbox {
  bool enabled = true;            // false: compilers run as refinery's user and see everything (for benches)
  bool allow_incomplete = false;  // compile where the platform refuses a layer (eval.allow_untrusted); else an Error
  // Per process: memory 6 GiB, CPU 240 s, files 256 MiB, 512 processes; the
  // memory cap also caps each step's memory cgroup, where the host allows one.
  base::ProcessCaps caps;
  uint64_t scratch_bytes = 1ull << 30;  // the private /tmp, where g++ keeps its temporaries
  std::vector<std::string> read_only;   // more paths compilers may read (a host compiler's own folders, ...)
};

struct CompileOptions {
  std::string cache_dir;          // required
  std::string cuda_arch = "90a";  // compute capability for nvcc, e.g. "90a", "80"
  bool use_pch = true;            // precompiled <torch/torch.h> for g++ compiles
  bool lean_headers = true;       // nvcc: lean umbrella headers where safe (lean_headers.h)
  double timeout_seconds = 300;
  int max_parallel = 0;  // compiles at once; 0 = one per core
  CacheLimits limits;    // the cache's size, and the largest compile it keeps
  // Values (API keys) replaced by [REDACTED] in the log, the command and the
  // headers note of every compile, before they are stored or returned
  // (base/redact.h): a source may have the compiler quote what it found.
  std::vector<std::string> secrets;
  CompileSandbox sandbox;
};

struct CompileJob {
  Backend backend = Backend::cpu;         // the device: cuda links LibTorch's CUDA libraries too
  LanguageId language = LanguageId::cxx;  // its build step (language.h); references are C++ on every backend
  bool reference = false;                 // a problem's reference: no preprocessed lines are kept for static checks
  std::string source;                     // as written by the model or the problem's author
  std::string shim;                       // appended after a #line marker
  std::string stem = "candidate";
  // Python: the arguments ModelNew is built with (the problem's dims, as
  // KernelBench's get_init_inputs gives them), so that a load_inline in its
  // constructor builds too.
  std::vector<int64_t> init_args = {};
  // Python on cuda: the job's inputs (JSON: [{shape, dtype, scalar, value,
  // weight}]) for the one forward that has Triton compile in the build.
  std::string warm_inputs = {};
};

struct CompiledLibrary {
  bool ok = false;
  bool cached = false;
  std::string library_path;  // valid when ok
  std::string log;           // compiler output, capped
  // A candidate's own lines after the preprocessor (static_checks.h:
  // candidate_lines), for the static checks; empty for references and failures.
  std::string preprocessed;
  std::string command;  // the compile command, for the record
  std::string key;
  double seconds = 0;      // time spent compiling now (0 when cached)
  bool timed_out = false;  // the build ran past its deadline (never cached)
  std::string digest;      // SHA-256 of lib.so (hex), checked on a hit; empty when !ok
  // Why a stored entry was not used and was compiled again ("refinery: cache
  // object objects/ab/abcd...: lib.so is missing; recompiled"); also the log's
  // first line. Empty otherwise.
  std::string cache_note;
  // Which headers the umbrella includes meant: "lean" (lean_headers.h),
  // "full: <why not lean>", "full: the lean compile failed (<its first
  // error>)", or empty when the source includes no umbrella header.
  std::string headers;
  // Seconds per step of this compile (nvcc: plan, host front end, device,
  // host compile and link; a lean attempt that failed first as "lean
  // attempt"); empty when cached.
  std::vector<std::pair<std::string, double>> steps;
  // Holds the cache entry of library_path: the cache evicts no entry that is
  // leased. Keep a copy until the library has been loaded (the evaluation's end).
  Lease lease;
};

// The build step as a prompt names it: "g++ -O3 -fopenmp", "nvcc (sm_90a)".
std::string describe_build(Build build, const CompileOptions& options);

class CompileService {
 public:
  CompileService(Toolchain toolchain, CompileOptions options, base::ProcessSpawner& spawner);

  // Dispatches on the job's language's build step.
  base::Result<CompiledLibrary> compile(const CompileJob& job);

  // Host-only compiles (references, for `refinery problems check`) in one
  // translation unit, each source in a namespace of its own, so that
  // LibTorch's headers are read once, not once per source (measured here:
  // ten level-2 references took as long together as one alone); then one
  // library per job, exporting that job's entry point. Cached under a key of
  // the whole batch ("batch-v1"), never under a single compile's: a library
  // built beside other sources is not what compiling one source gives. When
  // the batch does not compile, each job goes through compile(), whose logs
  // name the culprit.
  base::Result<std::vector<CompiledLibrary>> compile_batch(const std::vector<CompileJob>& jobs);

  // What the compilers' sandbox is on this machine, found by running the C++
  // compiler in it; for `refinery doctor`.
  struct SandboxProbe {
    std::vector<std::string> missing;      // the layers this machine refuses; empty: every one applies
    uint64_t memory_cgroup_bytes = 0;      // each step's memory cgroup cap; 0: no cgroup
    std::string no_memory_cgroup_because;  // when 0
  };
  base::Result<SandboxProbe> probe_sandbox();

  const Toolchain& toolchain() const { return toolchain_; }
  const CompileOptions& options() const { return options_; }

 private:
  // The two builds of a shared library with the shim: g++ or nvcc.
  base::Result<CompiledLibrary> compile_library(const CompileJob& job, bool use_nvcc);
  // A Python module's build (python_build.cc): the bundle of its source and
  // what its load_inline calls built.
  base::Result<CompiledLibrary> compile_python(const CompileJob& job);
  // The cache entry of a key, the entry under it if it checks out (else
  // removed, out.cache_note saying why), and the store of a finished compile
  // in `tmp` (its lib.so, log and meta.json) under it.
  std::filesystem::path entry_path(const std::string& key) const;
  std::optional<CompiledLibrary> lookup(const std::filesystem::path& entry, CompiledLibrary& out);
  base::Result<CompiledLibrary> store(const std::string& tmp, const std::filesystem::path& entry, CompiledLibrary out,
                                      const std::string& version);
  static CompiledLibrary noted(CompiledLibrary lib);
  // One compile per core (options_.max_parallel): waits for a slot, held until the Slot goes.
  struct Slot {
    std::counting_semaphore<>* slots;
    explicit Slot(std::counting_semaphore<>& s) : slots(&s) { slots->acquire(); }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    ~Slot() { slots->release(); }
  };
  Slot take_slot() { return Slot(slots_); }
  base::Result<std::string> compiler_version(const std::string& compiler);
  // The folder of the precompiled header, built on first use; empty if unusable.
  std::string precompiled_header(const std::vector<std::string>& flags, std::string* note);
  // The folder of compat_headers() in the cache, written once; an Error if it cannot be.
  base::Result<std::string> compat_include_dir();
  using Run = std::function<base::Result<base::ProcessResult>(const base::SpawnOptions&)>;
  // The lean attempts of one compile (lean_headers.h): the successful result,
  // with `spawn` now its command; or nullopt when the full headers decide,
  // out.headers saying why and out.steps holding the attempts' time.
  base::Result<std::optional<base::ProcessResult>> compile_lean(const CompileJob& job, const std::string& tmp,
                                                                base::SpawnOptions& spawn, const Run& run,
                                                                CompiledLibrary& out);

  Toolchain toolchain_;
  CompileOptions options_;
  base::Redactor redactor_;  // of options_.secrets
  CompileCache cache_;
  base::ProcessSpawner& spawner_;
  std::mutex mutex_;  // guards versions_, pch_dir_ and compat_dir_
  std::vector<std::pair<std::string, std::string>> versions_;
  std::string pch_dir_;
  std::string compat_dir_;
  bool pch_tried_ = false;
  std::counting_semaphore<> slots_;  // one compile per core (options_.max_parallel)
};

}  // namespace eval
