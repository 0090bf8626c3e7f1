// CompileService::compile_batch: many host-only sources in one translation
// unit, one library each (compiler.h says why and when).
#include <chrono>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "base/fs.h"
#include "base/sha256.h"
#include "base/text.h"
#include "eval/build/compile_log.h"
#include "eval/build/compiler.h"
#include "eval/build/compiler_detail.h"
#include "eval/build/shim.h"

namespace eval {
namespace fs = std::filesystem;
using base::Error;
using base::Result;
using namespace detail;

namespace {

std::string member_symbol(size_t k) {
  return std::string(kEntrySymbol) + "_batch" + std::to_string(k);
}

// Every source in a namespace of its own, its shim's entry point renamed, its
// #include lines hoisted to the top (blanked where they were, so that line
// numbers hold): inside a namespace an include would be a no-op at best.
std::string batch_source(const std::vector<CompileJob>& jobs) {
  std::set<std::string> seen;
  std::string head, body;
  auto hoist = [&](const std::string& text) {
    std::string out;
    for (const auto& line : base::split(text, '\n')) {
      const std::string t = base::trim(line);
      if (base::starts_with(t, "#include")) {
        if (seen.insert(t).second) head += t + "\n";
        out += "\n";
      } else {
        out += line + "\n";
      }
    }
    return out;
  };
  for (size_t k = 0; k < jobs.size(); ++k) {
    std::string shim = jobs[k].shim;
    const std::string entry = std::string(kEntrySymbol) + "(";
    if (auto at = shim.find(entry); at != std::string::npos) shim.replace(at, entry.size(), member_symbol(k) + "(");
    body += "namespace refinery_batch_" + std::to_string(k) + " {\n#line 1 \"" + jobs[k].stem + "\"\n" +
            hoist(jobs[k].source) + "#line 1 \"refinery_shim\"\n" + hoist(shim) + "}\n";
  }
  return head + body;
}

Result<std::vector<CompiledLibrary>> read_batch(const fs::path& dir, size_t members, const CompileCache& cache) {
  if (auto why = cache.oversize(dir.string())) return Error{*why};
  auto text = base::read_file((dir / "meta.json").string());
  if (!text) return Error{"meta.json cannot be read"};
  auto meta = nlohmann::json::parse(*text, nullptr, false);
  if (!meta.is_object() || !meta.value("ok", false) || !meta.contains("members") || !meta["members"].is_array() ||
      meta["members"].size() != members)
    return Error{"meta.json is not a batch record"};
  std::vector<CompiledLibrary> out;
  for (size_t k = 0; k < members; ++k) {
    CompiledLibrary lib;
    lib.ok = lib.cached = true;
    lib.library_path = (dir / ("lib" + std::to_string(k) + ".so")).string();
    lib.command = meta.value("command", "");
    lib.headers = "batch";
    auto digest = base::sha256_file_hex(lib.library_path);
    if (!digest || !meta["members"][k].is_string() || *digest != meta["members"][k].get<std::string>())
      return Error{lib.library_path + " does not match its recorded digest"};
    lib.digest = *digest;
    out.push_back(std::move(lib));
  }
  return out;
}

}  // namespace

Result<std::vector<CompiledLibrary>> CompileService::compile_batch(const std::vector<CompileJob>& jobs) {
  auto one_by_one = [&]() -> Result<std::vector<CompiledLibrary>> {
    std::vector<CompiledLibrary> out;
    for (const auto& job : jobs) {
      TRY_ASSIGN(CompiledLibrary lib, compile(job));
      out.push_back(std::move(lib));
    }
    return out;
  };
  if (jobs.size() < 2) return one_by_one();
  for (const auto& job : jobs)
    if (language(job.language).build != Build::gxx) return Error{"compile_batch takes g++ compiles only"};
  const std::string compiler = toolchain_.cxx;
  TRY_ASSIGN(std::string version, compiler_version(compiler));
  std::vector<std::string> flags = common_flags(toolchain_);
  TRY_ASSIGN(std::string compat, compat_include_dir());
  flags.insert(flags.begin(), "-I" + compat);
  flags.insert(flags.end(), {"-fPIC", "-fopenmp"});
  std::string note;
  const std::string pch = options_.use_pch ? precompiled_header(flags, &note) : "";
  const std::vector<std::string> link = link_flags(toolchain_, jobs[0].backend == Backend::cuda, false);
  const std::string source = batch_source(jobs);
  const std::string key = base::sha256_hex("batch-v1\n" + compiler + "\n" + version + "\n" + toolchain_.torch_version +
                                           "\n" + sandbox_key(options_) + "\n" + base::join(flags, " ") + "\n" +
                                           base::join(link, " ") + "\n" + (pch.empty() ? "" : "pch") + "\n" + source);
  const fs::path entry = fs::path(options_.cache_dir) / "objects" / "batch" / key;
  std::error_code ec;
  if (Lease held = cache_.lease(entry.string())) {
    if (auto stored = read_batch(entry, jobs.size(), cache_)) {
      for (auto& lib : *stored) lib.lease = held;
      return stored;
    }
    held.reset();
    cache_.remove(entry.string());
  }

  const std::string tmp_parent = (fs::path(options_.cache_dir) / "tmp").string();
  TRY(base::make_dirs(tmp_parent, kFolderMode));
  TRY_ASSIGN(std::string tmp, base::make_temp_dir(tmp_parent, "batch"));
  const std::string source_path = (fs::path(tmp) / "batch.cpp").string();
  TRY(base::write_file(source_path, source));
  std::vector<std::string> visible = {compat};
  if (!pch.empty()) visible.push_back(pch);
  auto spawn = [&](std::vector<std::string> argv) {
    base::SpawnOptions o = compile_spawn(toolchain_, options_, std::move(argv), tmp, visible);
    o.timeout_seconds = options_.timeout_seconds * static_cast<double>(jobs.size());
    return spawner_.run(o);
  };
  std::vector<std::string> argv = {compiler};
  if (!pch.empty()) argv.insert(argv.end(), {"-I" + pch, "-include", kPchHeader, "-Winvalid-pch"});
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-c", source_path, "-o", (fs::path(tmp) / "batch.o").string()});
  auto start = std::chrono::steady_clock::now();
  slots_.acquire();
  auto compiled = spawn(argv);
  // One library per member, each exporting that member's entry point as the
  // worker looks for it.
  nlohmann::json members = nlohmann::json::array();
  bool linked = compiled && compiled->exited_ok();
  for (size_t k = 0; linked && k < jobs.size(); ++k) {
    const std::string lib = (fs::path(tmp) / ("lib" + std::to_string(k) + ".so")).string();
    std::vector<std::string> link_argv = {
        compiler, "-shared", "batch.o",
        "-o",     lib,       "-Wl,--defsym=" + std::string(kEntrySymbol) + "=" + member_symbol(k)};
    link_argv.insert(link_argv.end(), link.begin(), link.end());
    auto r = spawn(link_argv);
    auto digest = r && r->exited_ok() ? base::sha256_file_hex(lib) : Result<std::string>(Error{"link failed"});
    linked = static_cast<bool>(digest);
    if (linked) members.push_back(*digest);
  }
  slots_.release();
  fs::remove(fs::path(tmp) / "batch.o", ec);
  if (!linked || cache_.oversize(tmp)) {  // the members one by one: their own logs say which failed and why
    fs::remove_all(tmp, ec);
    return one_by_one();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  nlohmann::json meta = {
      {"ok", true}, {"command", quote_command(argv)}, {"seconds", seconds}, {"members", members}, {"note", note}};
  TRY(base::write_file((fs::path(tmp) / "meta.json").string(), meta.dump(2)));
  TRY(seal(tmp));
  TRY_ASSIGN(CompileCache::Stored stored, cache_.store(tmp, entry.string()));  // or another process's, stored first
  TRY_ASSIGN(std::vector<CompiledLibrary> out, read_batch(entry, jobs.size(), cache_));
  (void)cache_.after_store(entry.string(), std::chrono::system_clock::now());
  for (auto& lib : out) {
    lib.lease = stored.lease;
    lib.cached = false;
    lib.seconds = seconds / static_cast<double>(jobs.size());
    lib.steps = {{"batch of " + std::to_string(jobs.size()), seconds}};
  }
  return out;
}

}  // namespace eval
