// The build step of a Python candidate (language.h, Build::python): the
// interpreter imports the module in the compilers' sandbox with
// python_build.py, so that whatever its load_inline calls build, g++ or nvcc
// builds there; the source and those libraries become one bundle
// (python_bundle.h), cached by content like a C++ library.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/fs.h"
#include "base/sha256.h"
#include "base/text.h"
#include "eval/build/compile_log.h"
#include "eval/build/compiler.h"
#include "eval/build/compiler_detail.h"
#include "eval/build/python_bundle.h"

namespace eval {
namespace fs = std::filesystem;
using base::Error;
using base::Result;

namespace {

constexpr const char* kDriver =
#include "embedded/python_build.inc"
    ;

// The lines a model reads of a failed build: the build's own error first,
// then the tail of what the interpreter printed.
std::string build_log(const nlohmann::json& manifest, const base::ProcessResult& r) {
  std::string log;
  if (manifest.is_object() && manifest.value("error", nlohmann::json()).is_string()) {
    log = manifest["error"].get<std::string>();
    if (manifest.value("phase", nlohmann::json()).is_string())
      log = "refinery: the module's build failed at " + manifest["phase"].get<std::string>() + ":\n" + log;
  }
  std::string printed = base::trim(r.out + r.err);
  if (!printed.empty()) log += (log.empty() ? "" : "\n") + printed;
  return log;
}

// A file the build left, read by refinery (outside any sandbox): only a
// regular file whose real path lies inside the build's own folder. The
// module ran in the build and could have left a link to any host file, or
// named one in its manifest; the build's processes are gone by now, so
// nothing changes between the check and the read.
base::Result<std::string> read_built(const fs::path& path, const std::string& folder) {
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  const fs::path root = fs::canonical(folder, ec);
  const std::string inside = root.string() + "/";
  if (real.empty() || root.empty() || real.string().compare(0, inside.size(), inside) != 0)
    return Error{"not a file of the build's folder"};
  if (!fs::is_regular_file(fs::symlink_status(path, ec))) return Error{"not a regular file"};
  return base::read_file(real.string());
}

// "90a" -> "9.0a", as TORCH_CUDA_ARCH_LIST spells an architecture.
std::string torch_arch(const std::string& arch) {
  if (arch.size() < 2) return arch;
  return arch.substr(0, arch.size() - (std::isalpha(static_cast<unsigned char>(arch.back())) ? 2 : 1)) + "." +
         arch.substr(arch.size() - (std::isalpha(static_cast<unsigned char>(arch.back())) ? 2 : 1));
}

}  // namespace

Result<CompiledLibrary> CompileService::compile_python(const CompileJob& job) {
  CompiledLibrary out;
  if (toolchain_.python.empty()) {
    out.log =
        "refinery: this build of refinery found no Python whose torch is its LibTorch (" + toolchain_.torch_version +
        "), so Python candidates cannot be built here; configure with -DREFINERY_PYTHON=/path/to/python3 (README)";
    return out;
  }
  TRY_ASSIGN(std::string version, compiler_version(toolchain_.python));
  TRY_ASSIGN(std::string cxx_version, compiler_version(toolchain_.cxx));
  nlohmann::json args = {
      {"source", "candidate.py"},    {"init", job.init_args}, {"ext", "ext"},
      {"manifest", "manifest.json"}, {"warm", nullptr},       {"python_path", toolchain_.python_path}};
  // Triton compiles when a kernel first runs: a module that uses it runs once here, on the GPU.
  const bool warm = job.backend == Backend::cuda && job.source.find("triton") != std::string::npos;
  if (warm) args["warm"] = {{"device", "cuda"}, {"inputs", nlohmann::json::parse(job.warm_inputs, nullptr, false)}};
  const std::string key = base::sha256_hex(
      "python-build-v1\n" + toolchain_.python + "\n" + version + "\n" + cxx_version + "\n" + toolchain_.nvcc + "\n" +
      toolchain_.torch_version + "\n" + detail::sandbox_key(options_) + "\n" + to_string(job.backend) + "\n" +
      options_.cuda_arch + "\n" + kDriver + "\n" + args.dump() + "\n" + job.source);
  const fs::path entry = entry_path(key);
  out.key = key;
  if (auto hit = lookup(entry, out)) return std::move(*hit);

  const std::string tmp_parent = (fs::path(options_.cache_dir) / "tmp").string();
  TRY(base::make_dirs(tmp_parent, detail::kFolderMode));
  TRY_ASSIGN(std::string tmp, base::make_temp_dir(tmp_parent, "python"));
  auto at = [&](const std::string& name) { return (fs::path(tmp) / name).string(); };
  TRY(base::write_file(at("candidate.py"), job.source));
  TRY(base::write_file(at("python_build.py"), kDriver));
  args["source"] = at("candidate.py");
  args["ext"] = at("ext");
  args["manifest"] = at("manifest.json");
  TRY(base::write_file(at("args.json"), args.dump()));
  // -I: no PYTHON* variables, no user site folder; -B: no .pyc beside the module.
  std::vector<std::string> read_only;
  for (const auto& p : toolchain_.python_path)
    if (!p.empty() && fs::is_directory(p)) read_only.push_back(p);
  // An interpreter in a virtual environment finds its packages through the
  // environment's pyvenv.cfg, and its tools (ninja, which load_inline runs)
  // beside it: the environment is mounted whole, and its bin is first on PATH.
  const fs::path bin = fs::path(toolchain_.python).parent_path();
  if (fs::exists(bin.parent_path() / "pyvenv.cfg")) read_only.push_back(bin.parent_path().string());
  base::SpawnOptions o = detail::compile_spawn(toolchain_, options_,
                                               {toolchain_.python, "-I", "-B", at("python_build.py"), at("args.json")},
                                               tmp, read_only, {"urandom", "random"}, /*gpu=*/warm);
  o.env.push_back("MAX_JOBS=2");
  auto path = std::find_if(o.env.begin(), o.env.end(), [](const std::string& e) { return e.starts_with("PATH="); });
  if (path == o.env.end())
    o.env.push_back("PATH=" + bin.string() + ":/usr/bin:/bin");
  else
    *path = "PATH=" + bin.string() + ":" + path->substr(5);
  if (job.backend == Backend::cuda) o.env.push_back("TORCH_CUDA_ARCH_LIST=" + torch_arch(options_.cuda_arch));
  if (warm)
    o.env.push_back("TRITON_CACHE_DIR=" + at("triton"));
  else  // no GPU in the compilers' sandbox: a constructor that needs one is the runner's to report
    o.env.push_back("CUDA_VISIBLE_DEVICES=");

  Slot slot = take_slot();  // one compile per core
  auto start = std::chrono::steady_clock::now();
  TRY_ASSIGN(base::ProcessResult r, spawner_.run(o));
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.steps = {{"import and build", out.seconds}};
  out.command = detail::quote_command(o.argv);
  auto manifest_text = read_built(at("manifest.json"), tmp);
  nlohmann::json manifest = manifest_text ? nlohmann::json::parse(*manifest_text, nullptr, false) : nlohmann::json();
  std::optional<std::string> cap = detail::cap_note(r, options_, /*gpu=*/warm);
  out.log = clean_compile_log(build_log(manifest, r), {{tmp + "/", ""}, {options_.cache_dir + "/", "<cache>/"}});
  out.timed_out = r.timed_out;
  if (r.timed_out)
    out.log += "\nrefinery: the module's import and build did not finish within " +
               std::to_string(static_cast<int>(options_.timeout_seconds)) + " s and were killed";
  if (cap) out.log += "\n" + *cap;
  out.ok = r.exited_ok() && manifest.is_object() && manifest.value("error", nlohmann::json()).is_null();
  if (r.exited_ok() && !manifest.is_object()) out.log += "\nrefinery: the build wrote no manifest";
  std::vector<BundleFile> files = {{"model_new.py", "source", job.source}};
  if (out.ok) {
    for (const auto& e : manifest.value("extensions", nlohmann::json::array())) {
      const std::string file = e.value("file", "");
      auto bytes = read_built(fs::path(file).is_absolute() ? fs::path(file) : fs::path(at(file)), tmp);
      if (!bytes) {
        out.ok = false;
        out.log += "\nrefinery: the build of " + e.value("name", std::string("?")) + " left no library (" +
                   bytes.error().message + ")";
        break;
      }
      files.push_back({e.value("name", ""), e.value("python_module", true) ? "extension" : "library", *bytes});
    }
  }
  // What Triton compiled (kernels, launcher), by its path in the cache, for the runner's own cache.
  if (out.ok && warm && fs::is_directory(fs::symlink_status(at("triton")))) {
    for (const auto& f : fs::recursive_directory_iterator(at("triton"))) {
      auto bytes = read_built(f.path(), tmp);
      if (!bytes) continue;
      files.push_back({fs::relative(f.path(), at("triton")).string(), "triton_cache", *bytes});
    }
  }
  for (std::string* text : {&out.log, &out.command}) *text = redactor_.redact(*text);
  std::error_code ec;
  if (r.timed_out) {  // not cached: a less loaded machine may finish
    fs::remove_all(tmp, ec);
    return noted(out);
  }
  // What the build left besides the bundle goes: objects, ninja's files, the copy of the source.
  for (const auto& name : {"ext", "triton", "candidate.py", "python_build.py", "args.json", "manifest.json"})
    fs::remove_all(at(name), ec);
  if (out.ok) {
    TRY(base::write_file(at("lib.so"), write_bundle(files)));
    TRY_ASSIGN(out.digest, base::sha256_file_hex(at("lib.so")));
  }
  if (auto why = cache_.oversize(tmp)) {
    out.ok = false;
    out.log += "\nrefinery: " + *why + "; not cached";
    fs::remove_all(tmp, ec);
    return noted(out);
  }
  return store(tmp, entry, std::move(out), version);
}

}  // namespace eval
