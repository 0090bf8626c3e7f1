// The compile service's own helpers, shared by compiler.cc and
// compile_batch.cc; not for use outside the compile service.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "eval/build/compile_cache.h"
#include "eval/build/compiler.h"

namespace eval::detail {

inline constexpr const char* kPchHeader = "refinery_torch_all.h";
// A candidate's entry: its own lines after the preprocessor (CompiledLibrary::preprocessed).
inline constexpr const char* kPreprocessedFile = "preprocessed.txt";
inline constexpr unsigned kFolderMode = kCacheFolderMode, kFileMode = kCacheFileMode;

// -std, -O, LibTorch's defines and include folders.
std::vector<std::string> common_flags(const Toolchain& t);
// LibTorch's libraries, with an rpath to them.
std::vector<std::string> link_flags(const Toolchain& t, bool cuda, bool nvcc);
// argv as one shell-quoted line, for the record.
std::string quote_command(const std::vector<std::string>& argv);
// Who reads what sealed folders hold: refinery alone (compiled candidates,
// their logs: kFolderMode, kFileMode), or every compile's sandbox too, which
// runs as another uid (refinery's headers and the precompiled LibTorch header:
// readable by all, writable by refinery alone).
enum class Access { owner, compilers };
inline constexpr unsigned kSharedFolderMode = 0755, kSharedFileMode = 0644;
// Makes dir and everything under it refinery's (a sandboxed compile wrote it
// as another uid) with the modes `access` gives, whatever the umask was.
base::Status seal(const std::filesystem::path& dir, Access access = Access::owner);

// One compile step (compile_sandbox.cc): argv run in `scratch`, its one
// writable folder ("" for none), with the options' deadline and caps, in the
// sandbox (unless options.sandbox.enabled is false), in a memory cgroup of its
// own capped at the memory cap where the host allows one, seeing the toolchain,
// LibTorch, options.sandbox.read_only and `read_only`. Its environment: PATH,
// LD_LIBRARY_PATH, CUDA_HOME, LC_ALL=C, and HOME and TMPDIR the sandbox's /tmp
// (the host's when unsandboxed).
// `devices`: more of /dev it may open ("urandom", which an interpreter reads);
// `gpu`: the NVIDIA devices too (a Python build that runs Triton's compile).
base::SpawnOptions compile_spawn(const Toolchain& t, const CompileOptions& options, std::vector<std::string> argv,
                                 const std::string& scratch, const std::vector<std::string>& read_only,
                                 const std::vector<std::string>& devices = {}, bool gpu = false);
// The caps a compile step is held to: the sandbox's, with the memory cap on
// private memory (RLIMIT_DATA) rather than address space where it may use the
// GPU (`gpu`, as compile_spawn takes it).
base::ProcessCaps compile_caps(const CompileOptions& options, bool gpu);
// The line a compile that hit a cap adds to its log ("refinery: the compile
// exceeded its memory cap (6 GiB)", "... (6 GiB, its cgroup's OOM killer)"),
// or nullopt.
std::optional<std::string> cap_note(const base::ProcessResult& r, const CompileOptions& options, bool gpu = false);
// What of the sandbox a cache key covers: the caps decide which compiles fail.
std::string sandbox_key(const CompileOptions& options);

}  // namespace eval::detail
