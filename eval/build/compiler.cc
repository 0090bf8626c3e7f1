#include "eval/build/compiler.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "base/fs.h"
#include "base/sha256.h"
#include "base/text.h"
#include "build_info.h"
#include "eval/build/compat_headers.h"
#include "eval/build/compile_log.h"
#include "eval/build/compiler_detail.h"
#include "eval/build/lean_headers.h"
#include "eval/build/nvcc_split.h"
#include "eval/build/static_checks.h"

namespace eval {
namespace fs = std::filesystem;
using base::Error;
using base::Result;

namespace detail {

std::vector<std::string> common_flags(const Toolchain& t) {
  std::vector<std::string> flags = {"-std=c++17", "-O3", "-DNDEBUG"};
  for (const auto& f : t.torch_cxx_flags) flags.push_back(f);
  for (const auto& inc : t.torch_includes) flags.push_back("-I" + inc);
  return flags;
}

std::vector<std::string> link_flags(const Toolchain& t, bool cuda, bool nvcc) {
  std::vector<std::string> flags = {"-L" + t.torch_lib_dir};
  if (nvcc)
    flags.insert(flags.end(), {"-Xlinker", "-rpath", "-Xlinker", t.torch_lib_dir});
  else
    flags.push_back("-Wl,-rpath," + t.torch_lib_dir);
  for (const char* lib : {"-ltorch", "-ltorch_cpu", "-lc10"}) flags.push_back(lib);
  if (cuda && t.torch_has_cuda)
    for (const char* lib : {"-ltorch_cuda", "-lc10_cuda"}) flags.push_back(lib);
  return flags;
}

std::string quote_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    out += a.find_first_of(" \t\"'") == std::string::npos ? a : "'" + a + "'";
  }
  return out;
}

base::Status seal(const fs::path& dir, Access access) {
  // What a sandboxed compile wrote belongs to the sandbox's uid until now.
  if (geteuid() == 0) TRY(base::chown_tree(dir.string(), geteuid(), getegid()));
  const bool shared = access == Access::compilers;
  const auto kFolder = static_cast<fs::perms>(shared ? kSharedFolderMode : kFolderMode);
  const auto kFile = static_cast<fs::perms>(shared ? kSharedFileMode : kFileMode);
  std::error_code walk, mode;
  fs::permissions(dir, kFolder, mode);
  for (fs::recursive_directory_iterator it(dir, walk), end; !walk && !mode && it != end; it.increment(walk)) {
    auto type = it->symlink_status(walk).type();  // a link's target is not ours to change
    if (type == fs::file_type::directory || type == fs::file_type::regular)
      fs::permissions(it->path(), type == fs::file_type::directory ? kFolder : kFile, mode);
  }
  if (walk || mode) return Error{dir.string() + ": cannot set the cache's modes: " + (mode ? mode : walk).message()};
  return {};
}

}  // namespace detail

using namespace detail;

namespace {

// Why a failed compile may not be the source's fault, or nullopt when it is
// an ordinary compile error (which is cached like a success).
std::optional<std::string> transient_failure(const base::ProcessResult& r) {
  if (r.signal != 0) return "the compiler was killed by signal " + std::to_string(r.signal);
  static const char* const kSigns[] = {"No space left on device",
                                       "Disk quota exceeded",
                                       "Cannot allocate memory",
                                       "virtual memory exhausted",
                                       "out of memory",
                                       "Too many open files",
                                       "Read-only file system",
                                       "Input/output error",
                                       "Resource temporarily unavailable",
                                       "Killed signal terminated program",
                                       "internal compiler error: Killed"};
  for (const char* sign : kSigns)
    if (r.out.find(sign) != std::string::npos || r.err.find(sign) != std::string::npos) return std::string(sign);
  return std::nullopt;
}

// CompiledLibrary::headers for a compile refused lean headers: a reason about
// LibTorch's install, or about the source (lean_headers.h's why_not).
std::string full_headers_because(const std::string& why_not) {
  return "full: " + (base::starts_with(why_not, "LibTorch") ? why_not : "the source " + why_not);
}

// The entry stored at dir, or why it cannot be used (the Error's message). An
// ok entry is used only when its lib.so has the SHA-256 meta.json recorded,
// and when it is no larger than the cache keeps.
// The candidate's own lines of its preprocessed translation unit (g++'s
// -save-temps=obj output beside lib.so, or nvcc's host preprocessing,
// *.cpp4.ii, in its temporary folder), written to the entry as
// kPreprocessedFile; the compiler's other temporaries beside lib.so go.
std::string own_preprocessed(const std::string& tmp, const std::string& where, const std::string& file_name) {
  std::string text;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(where, ec)) {
    const std::string name = e.path().filename().string();
    const bool ii = base::ends_with(name, ".cpp4.ii") ||
                    base::ends_with(name, "-" + file_name.substr(0, file_name.rfind('.')) + ".ii");
    if (ii && text.empty()) {
      auto read = base::read_file(e.path().string());
      if (read && read->size() <= (256u << 20)) text = candidate_lines(*read, file_name);
    }
    if (where == tmp && base::starts_with(name, "lib.so-")) fs::remove(e.path(), ec);
  }
  if (text.size() > (4u << 20)) text.resize(4u << 20);
  (void)base::write_file((fs::path(tmp) / kPreprocessedFile).string(), text);
  return text;
}

Result<CompiledLibrary> read_entry(const fs::path& dir, const CompileCache& cache) {
  if (auto why = cache.oversize(dir.string())) return Error{*why};
  auto text = base::read_file((dir / "meta.json").string());
  if (!text) return Error{"meta.json cannot be read"};
  auto meta = nlohmann::json::parse(*text, nullptr, false);
  if (!meta.is_object() || !meta.contains("ok") || !meta["ok"].is_boolean())
    return Error{"meta.json is not a compile record"};
  CompiledLibrary out;
  out.ok = meta["ok"].get<bool>();
  out.cached = true;
  if (meta.contains("command") && meta["command"].is_string()) out.command = meta["command"].get<std::string>();
  auto log = base::read_file((dir / "compile.log").string());
  out.log = log ? *log : "";
  if (auto pre = base::read_file((dir / kPreprocessedFile).string())) out.preprocessed = *pre;
  if (meta.contains("headers") && meta["headers"].is_string()) out.headers = meta["headers"].get<std::string>();
  out.library_path = (dir / "lib.so").string();
  if (!out.ok) return out;
  if (!fs::exists(out.library_path)) return Error{"lib.so is missing"};
  if (!meta.contains("lib_sha256") || !meta["lib_sha256"].is_string())
    return Error{"meta.json records no digest of lib.so"};
  auto digest = base::sha256_file_hex(out.library_path);
  if (!digest) return Error{"lib.so cannot be read"};
  if (*digest != meta["lib_sha256"].get<std::string>()) return Error{"lib.so does not match its recorded digest"};
  out.digest = *digest;
  return out;
}

}  // namespace

CompileService::CompileService(Toolchain toolchain, CompileOptions options, base::ProcessSpawner& spawner)
    : toolchain_(std::move(toolchain)),
      options_(std::move(options)),
      redactor_(options_.secrets),
      cache_(fs::absolute(options_.cache_dir).string(), options_.limits),
      spawner_(spawner),
      slots_(options_.max_parallel > 0 ? options_.max_parallel
                                       : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))) {
  // Compiles run inside their own folders: every path handed to them is absolute.
  options_.cache_dir = fs::absolute(options_.cache_dir).string();
}

Result<std::string> CompileService::compiler_version(const std::string& compiler) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [c, v] : versions_)
      if (c == compiler) return v;
  }
  base::SpawnOptions o = compile_spawn(toolchain_, options_, {compiler, "--version"}, "", {});
  o.timeout_seconds = 60;
  TRY_ASSIGN(base::ProcessResult r, spawner_.run(o));
  if (!r.exited_ok()) return Error{"cannot run " + compiler + " --version: " + r.err};
  std::string version = base::trim(r.out);
  std::lock_guard<std::mutex> lock(mutex_);
  versions_.emplace_back(compiler, version);
  return version;
}

Result<CompileService::SandboxProbe> CompileService::probe_sandbox() {
  CompileOptions probe = options_;
  probe.sandbox.allow_incomplete = true;  // to see what is missing rather than stop at it
  base::SpawnOptions o = compile_spawn(toolchain_, probe, {toolchain_.cxx, "--version"}, "", {});
  o.timeout_seconds = 60;
  if (!o.start) return SandboxProbe{{"the sandbox: off (CompileSandbox::enabled)"}, 0, "the sandbox is off"};
  TRY_ASSIGN(base::ProcessResult r, spawner_.run(o));
  if (!r.exited_ok()) return Error{"cannot run " + toolchain_.cxx + " --version in the sandbox: " + r.err};
  std::string why_not = r.memory_cgroup_note;
  if (r.memory_cgroup_bytes == 0 && why_not.empty()) why_not = "no compile memory cap";
  return SandboxProbe{r.refused_layers, r.memory_cgroup_bytes, r.memory_cgroup_bytes ? "" : why_not};
}

std::string CompileService::precompiled_header(const std::vector<std::string>& flags, std::string* note) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (pch_tried_) return pch_dir_;
  pch_tried_ = true;
  std::string cxx_version;
  for (const auto& [c, v] : versions_)
    if (c == toolchain_.cxx) cxx_version = v;
  std::string key =
      base::sha256_hex("pch-v1\n" + cxx_version + "\n" + toolchain_.torch_version + "\n" + base::join(flags, " "));
  fs::path dir = fs::path(options_.cache_dir) / "pch" / key.substr(0, 16);
  fs::path header = dir / kPchHeader;
  fs::path gch = dir / (std::string(kPchHeader) + ".gch");
  if (auto made = base::make_dirs(dir.string(), kSharedFolderMode); !made) {
    *note = "precompiled header unavailable: " + made.error().message;
    return "";
  }
  // One process builds it; others wait on the lock and then find it there.
  int lock_fd = open((dir / "lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, kSharedFileMode);
  if (lock_fd >= 0) flock(lock_fd, LOCK_EX);
  if (!fs::exists(gch)) {
    (void)base::write_file(header.string(), "#include <torch/torch.h>\n");
    // Built in a scratch folder of its own (the compiler writes nowhere else), then moved into place.
    const std::string tmp_parent = (fs::path(options_.cache_dir) / "tmp").string();
    auto scratch = base::make_dirs(tmp_parent, kFolderMode) ? base::make_temp_dir(tmp_parent, "pch")
                                                            : Result<std::string>(Error{"cannot create " + tmp_parent});
    std::vector<std::string> argv = {toolchain_.cxx};
    argv.insert(argv.end(), flags.begin(), flags.end());
    const std::string built = scratch ? *scratch + "/" + kPchHeader + ".gch" : "";
    argv.insert(argv.end(), {"-x", "c++-header", header.string(), "-o", built});
    // What it builds is LibTorch's, not a candidate's: no cap on its size.
    CompileOptions pch_options = options_;
    pch_options.sandbox.caps.file_bytes = 0;
    auto r = scratch ? spawner_.run(compile_spawn(toolchain_, pch_options, argv, *scratch, {dir.string()}))
                     : base::Result<base::ProcessResult>(scratch.error());
    std::error_code ec;
    if (r && r->exited_ok() && seal(*scratch, Access::compilers))
      fs::rename(built, gch, ec);
    else
      *note = "precompiled header failed to build; compiling without it";
    if (scratch) fs::remove_all(*scratch, ec);
  }
  // Every compile includes it: nobody else may write it; every compile's
  // sandbox (another uid) reads it. It holds LibTorch's headers, compiled.
  if (auto sealed = seal(dir, Access::compilers); !sealed) *note = sealed.error().message;
  if (lock_fd >= 0) close(lock_fd);
  if (fs::exists(gch)) pch_dir_ = dir.string();
  return pch_dir_;
}

Result<std::string> CompileService::compat_include_dir() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!compat_dir_.empty()) return compat_dir_;
  // First use of the cache by this service (every compile asks for these
  // headers first): the folders of compiled candidates are made private,
  // also in a cache an older refinery left readable by all; the folders of
  // refinery's and LibTorch's own headers stay readable, for the compilers'
  // sandbox (another uid) reads them. The cache's root is the user's to
  // choose (--cache-dir may name a shared folder) and is left as it is.
  for (auto [own, mode] : {std::pair{"objects", kFolderMode}, std::pair{"tmp", kFolderMode},
                           std::pair{"pch", kSharedFolderMode}, std::pair{"include", kSharedFolderMode}}) {
    const fs::path folder = fs::path(options_.cache_dir) / own;
    TRY(base::make_dirs(folder.string(), mode));
    std::error_code ec;
    fs::permissions(folder, static_cast<fs::perms>(mode), ec);
    if (ec) return Error{folder.string() + ": cannot set its mode: " + ec.message()};
  }
  std::string all = "compat-v1\n";
  for (const auto& h : compat_headers()) all += h.path + "\n" + h.text + "\n";
  fs::path dir = fs::path(options_.cache_dir) / "include" / base::sha256_hex(all).substr(0, 16);
  TRY(base::make_dirs(dir.parent_path().string(), kSharedFolderMode));
  // Content-addressed: a complete folder appears by rename, or is already there.
  if (!fs::exists(dir / "complete")) {
    TRY_ASSIGN(std::string tmp, base::make_temp_dir(dir.parent_path().string(), "compat"));
    for (const auto& h : compat_headers()) {
      fs::path file = fs::path(tmp) / h.path;
      TRY(base::make_dirs(file.parent_path().string(), kFolderMode));
      TRY(base::write_file(file.string(), h.text));
    }
    TRY(base::write_file((fs::path(tmp) / "complete").string(), ""));
    TRY(seal(tmp, Access::compilers));
    std::error_code ec;
    fs::rename(tmp, dir, ec);
    if (ec) fs::remove_all(tmp, ec);  // another process put it there first
    if (!fs::exists(dir / "complete")) return Error{"cannot write refinery's headers into " + dir.string()};
  }
  compat_dir_ = dir.string();
  return compat_dir_;
}

Toolchain build_toolchain() {
  Toolchain t;
  t.cxx = REFINERY_CXX;
  t.nvcc = REFINERY_NVCC;
  t.torch_includes = base::split(REFINERY_TORCH_INCLUDES, ';');
  t.torch_lib_dir = REFINERY_TORCH_LIB_DIR;
  for (const auto& f : base::split(REFINERY_TORCH_CXX_FLAGS, ' '))
    if (!f.empty()) t.torch_cxx_flags.push_back(f);
  t.torch_version = REFINERY_TORCH_VERSION;
  t.torch_has_cuda = REFINERY_TORCH_HAS_CUDA;
  if (REFINERY_PYTHON_FOUND) {
    t.python = REFINERY_PYTHON;
    t.python_path = base::split(REFINERY_PYTHON_PATH, ';');
  }
  return t;
}

Result<std::optional<base::ProcessResult>> CompileService::compile_lean(const CompileJob& job, const std::string& tmp,
                                                                        base::SpawnOptions& spawn, const Run& run,
                                                                        CompiledLibrary& out) {
  LeanPlan lean = plan_lean_headers(job.source, toolchain_.torch_includes);
  if (!lean.use) {
    out.headers = full_headers_because(lean.why_not);
    return std::optional<base::ProcessResult>();
  }
  const std::string lean_dir = (fs::path(tmp) / "lean").string();
  double seconds = 0;
  // A failure that names operators LibTorch's own headers call is learnt
  // from and tried again, at most twice (learn_lean_ops).
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (attempt > 0) lean = plan_lean_headers(job.source, toolchain_.torch_includes);
    for (const auto& f : lean.files) {
      fs::path file = fs::path(lean_dir) / f.path;
      TRY(base::make_dirs(file.parent_path().string(), kFolderMode));
      TRY(base::write_file(file.string(), f.text));
    }
    base::SpawnOptions lean_spawn = spawn;
    lean_spawn.argv.insert(lean_spawn.argv.begin() + 1, "-I" + lean_dir);
    out.steps.clear();
    TRY_ASSIGN(base::ProcessResult r, run(lean_spawn));
    seconds += r.wall_seconds;
    if (r.exited_ok()) {
      out.headers = "lean";
      if (attempt > 0) out.steps.insert(out.steps.begin(), {"lean attempt", seconds - r.wall_seconds});
      spawn = std::move(lean_spawn);
      return std::optional<base::ProcessResult>(std::move(r));
    }
    if (!r.timed_out && attempt < 2 && learn_lean_ops(r.out + r.err, tmp + "/", toolchain_.torch_includes)) continue;
    // The full headers decide: their verdict, their errors.
    std::string first_error;
    for (const auto& line : base::split(r.out + r.err, '\n'))
      if (first_error.empty() && line.find("error") != std::string::npos) first_error = base::trim(line);
    if (base::starts_with(first_error, tmp + "/")) first_error = first_error.substr(tmp.size() + 1);
    out.headers = "full: the lean compile failed (" + first_error.substr(0, 200) + ")";
    break;
  }
  out.steps = {{"lean attempt", seconds}};
  return std::optional<base::ProcessResult>();
}

std::string describe_build(Build build, const CompileOptions& options) {
  switch (build) {
    case Build::gxx:
      return "g++ -O3 -fopenmp";
    case Build::nvcc:
      return "nvcc (sm_" + options.cuda_arch + ")";
    case Build::python:
      return "python3 with torch; its load_inline builds with g++, or nvcc (sm_" + options.cuda_arch + ")";
  }
  return "";
}

Result<CompiledLibrary> CompileService::compile(const CompileJob& job) {
  switch (language(job.language).build) {
    case Build::gxx:
      return compile_library(job, false);
    case Build::nvcc:
      return compile_library(job, true);
    case Build::python:
      return compile_python(job);
  }
  return Error{"not a build step of language.h"};
}

Result<CompiledLibrary> CompileService::compile_library(const CompileJob& job, bool use_nvcc) {
  if (use_nvcc && toolchain_.nvcc.empty())
    return Error{"the cuda backend needs nvcc, and refinery was built without the CUDA toolkit"};
  const std::string compiler = use_nvcc ? toolchain_.nvcc : toolchain_.cxx;
  TRY_ASSIGN(std::string version, compiler_version(compiler));

  std::vector<std::string> flags = common_flags(toolchain_);
  // Ahead of LibTorch's: <torch/extension.h> is refinery's (compat_headers.h).
  TRY_ASSIGN(std::string compat, compat_include_dir());
  flags.insert(flags.begin(), "-I" + compat);
  std::string note;
  std::string pch;
  if (use_nvcc) {
    const std::string& arch = options_.cuda_arch;
    flags.insert(flags.end(),
                 {"-gencode=arch=compute_" + arch + ",code=sm_" + arch, "--cudart", "shared", "-Xcompiler", "-fPIC",
                  "--expt-relaxed-constexpr", "-D__CUDA_NO_HALF_OPERATORS__", "-D__CUDA_NO_HALF_CONVERSIONS__",
                  "-D__CUDA_NO_BFLOAT16_CONVERSIONS__", "-D__CUDA_NO_HALF2_OPERATORS__"});
  } else {
    flags.insert(flags.end(), {"-fPIC", "-fopenmp"});
    if (options_.use_pch) pch = precompiled_header(flags, &note);
  }
  const bool cuda = job.backend == Backend::cuda;
  std::vector<std::string> link = link_flags(toolchain_, cuda, use_nvcc);
  std::string full_source = job.source + "\n#line 1 \"refinery_shim\"\n" + job.shim;
  const std::string ext = language(job.language).extension;
  // The key needs only whether the source may go lean; the plan (which reads
  // LibTorch's headers) is made on a miss.
  LeanPlan lean;
  if (use_nvcc && options_.lean_headers) lean = screen_lean_headers(job.source);
  // A candidate's compile leaves what the preprocessor made of it, for the
  // static checks (static_checks.h: scan_preprocessed): g++ beside its
  // output, nvcc's host preprocessing in its own temporary folder.
  const bool keep_preprocessed = !job.reference;
  if (keep_preprocessed && !use_nvcc) flags.push_back("-save-temps=obj");
  std::string key =
      base::sha256_hex("compile-v1\n" + compiler + "\n" + version + "\n" + toolchain_.torch_version + "\n" +
                       sandbox_key(options_) + "\n" + base::join(flags, " ") + "\n" + base::join(link, " ") + "\n" +
                       (pch.empty() ? "" : "pch") + "\n" + ext + "\n" + full_source +
                       // Not the lean files: lean or full, the result means the same.
                       (lean.use ? "\nlean-v1" : ""));

  const fs::path entry = entry_path(key);
  CompiledLibrary out;
  out.key = key;
  std::error_code ec;
  if (auto hit = lookup(entry, out)) return std::move(*hit);

  const std::string tmp_parent = (fs::path(options_.cache_dir) / "tmp").string();
  TRY(base::make_dirs(tmp_parent, kFolderMode));
  TRY_ASSIGN(std::string tmp, base::make_temp_dir(tmp_parent, "compile"));
  std::string source_path = (fs::path(tmp) / (job.stem + ext)).string();
  TRY(base::write_file(source_path, full_source));
  std::vector<std::string> argv = {compiler};
  if (!pch.empty()) argv.insert(argv.end(), {"-I" + pch, "-include", kPchHeader, "-Winvalid-pch"});
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-shared", source_path, "-o", (fs::path(tmp) / "lib.so").string()});
  argv.insert(argv.end(), link.begin(), link.end());
  std::vector<std::string> visible = {compat};
  if (!pch.empty()) visible.push_back(pch);
  base::SpawnOptions o = compile_spawn(toolchain_, options_, std::move(argv), tmp, visible);
  Slot slot = take_slot();  // one compile per core
  auto start = std::chrono::steady_clock::now();
  const std::string nvcc_tmp = (fs::path(tmp) / "nvcc-tmp").string();
  if (use_nvcc) {
    // nvcc's temporary files go in a folder of this compile's own, removed
    // after; the steps of its split, each a sandbox of its own, pass them on there.
    fs::create_directories(nvcc_tmp);
    std::erase_if(o.env, [](const std::string& kv) { return base::starts_with(kv, "TMPDIR="); });
    o.env.push_back("TMPDIR=" + nvcc_tmp);
  }
  auto run = [&](const base::SpawnOptions& spawn) -> Result<base::ProcessResult> {
    NvccSteps steps;
    auto r = use_nvcc ? run_nvcc_split(spawner_, spawn, key, &steps) : spawner_.run(spawn);
    if (r && !use_nvcc) steps.emplace_back("compile and link", r->wall_seconds);
    out.steps.insert(out.steps.end(), steps.begin(), steps.end());
    return r;
  };
  std::optional<base::ProcessResult> lean_result;
  if (lean.use) {
    TRY_ASSIGN(lean_result, compile_lean(job, tmp, o, run, out));
  } else if (!lean.why_not.empty()) {
    out.headers = full_headers_because(lean.why_not);
  }
  base::ProcessResult r;
  if (lean_result) {
    r = std::move(*lean_result);
  } else {
    TRY_ASSIGN(r, run(o));
  }
  // A cap the compile hit is the source's doing: a compile error, cached.
  // Another failure that may not be the source's (a signal, a full disk) is
  // tried once more, and if it fails the same way it is reported but never
  // cached: the same source may compile on a healthier machine.
  std::optional<std::string> cap = cap_note(r, options_);
  std::optional<std::string> transient = r.timed_out || r.exited_ok() || cap ? std::nullopt : transient_failure(r);
  if (transient) {
    TRY_ASSIGN(r, run(o));
    cap = cap_note(r, options_);
    transient = r.timed_out || r.exited_ok() || cap ? std::nullopt : transient_failure(r);
  }
  if (keep_preprocessed) {
    // Always, so that g++'s temporaries never reach a cached compile error.
    std::string own = own_preprocessed(tmp, use_nvcc ? nvcc_tmp : tmp, job.stem + ext);
    if (r.exited_ok()) out.preprocessed = std::move(own);
  }
  if (use_nvcc) {
    std::error_code ignored;
    fs::remove_all(nvcc_tmp, ignored);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.ok = r.exited_ok();
  out.log = clean_compile_log((note.empty() ? "" : note + "\n") + r.out + r.err,
                              {{tmp + "/", ""},
                               {pch.empty() ? "" : (fs::path(pch) / kPchHeader).string(), "<torch/torch.h>"},
                               {compat + "/", "<refinery>/"},
                               {options_.cache_dir + "/", "<cache>/"}});
  if (r.timed_out)
    out.log += "\nrefinery: the compiler did not finish within " +
               std::to_string(static_cast<int>(options_.timeout_seconds)) + " s and was killed";
  if (cap) out.log += "\n" + *cap;
  out.command = quote_command(o.argv);
  if (transient)
    out.log += "\nrefinery: the compile failed twice for a reason that may not be the source's (" + *transient +
               "); not cached";
  // Before anything is stored: a source can have the compiler quote a secret
  // (an #include of another process's environ, say).
  for (std::string* text : {&out.log, &out.command, &out.headers}) *text = redactor_.redact(*text);
  if (r.timed_out || transient) {  // not cached: a less loaded machine may finish next time
    fs::remove_all(tmp, ec);
    return noted(out);
  }
  if (auto why = cache_.oversize(tmp)) {  // not cached: a smaller limit is no property of the source
    out.ok = false;
    out.log += "\nrefinery: " + *why + "; not cached";
    fs::remove_all(tmp, ec);
    return noted(out);
  }
  if (out.ok) {
    auto digest = base::sha256_file_hex((fs::path(tmp) / "lib.so").string());
    if (digest) {
      out.digest = *digest;
    } else {
      out.ok = false;
      out.log += "\nrefinery: the compiler succeeded but left no readable lib.so";
    }
  }
  return store(tmp, entry, std::move(out), version);
}

fs::path CompileService::entry_path(const std::string& key) const {
  return fs::path(options_.cache_dir) / "objects" / key.substr(0, 2) / key;
}

std::optional<CompiledLibrary> CompileService::lookup(const fs::path& entry, CompiledLibrary& out) {
  Lease held = cache_.lease(entry.string());
  if (!held) return std::nullopt;
  auto stored = read_entry(entry, cache_);
  if (stored) {
    stored->key = out.key;
    stored->lease = std::move(held);
    return std::move(stored).value();
  }
  // Not used: removed, and compiled again as if it had never been there.
  out.cache_note = "refinery: cache object objects/" + entry.parent_path().filename().string() + "/" +
                   entry.filename().string() + ": " + stored.error().message + "; recompiled";
  held.reset();
  cache_.remove(entry.string());
  return std::nullopt;
}

CompiledLibrary CompileService::noted(CompiledLibrary lib) {
  // The note is this call's, not the entry's: a later hit does not repeat it.
  if (!lib.cache_note.empty()) lib.log = lib.cache_note + "\n" + lib.log;
  return lib;
}

Result<CompiledLibrary> CompileService::store(const std::string& tmp, const fs::path& entry, CompiledLibrary out,
                                              const std::string& version) {
  TRY(base::write_file((fs::path(tmp) / "compile.log").string(), out.log));
  nlohmann::json meta = {{"ok", out.ok},
                         {"command", out.command},
                         {"seconds", out.seconds},
                         {"compiler_version", version},
                         {"torch_version", toolchain_.torch_version},
                         {"headers", out.headers},
                         {"steps", nlohmann::json::object()}};
  for (const auto& [step, seconds] : out.steps) meta["steps"][step] = meta["steps"].value(step, 0.0) + seconds;
  if (out.ok) meta["lib_sha256"] = out.digest;
  TRY(base::write_file((fs::path(tmp) / "meta.json").string(), meta.dump(2)));
  TRY(seal(tmp));
  TRY_ASSIGN(CompileCache::Stored stored, cache_.store(tmp, entry.string()));
  if (!stored.ours) {
    // Another process stored the same key first: use what is there, if it checks out.
    auto theirs = read_entry(entry, cache_);
    if (!theirs) return Error{"cannot store compiled library in " + entry.string() + ": " + theirs.error().message};
    out.digest = theirs->digest;
  }
  out.lease = std::move(stored.lease);
  out.library_path = (entry / "lib.so").string();
  (void)cache_.after_store(entry.string(), std::chrono::system_clock::now());
  return noted(std::move(out));
}

}  // namespace eval
