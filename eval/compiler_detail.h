// The compile service's own helpers, shared by compiler.cc and
// compile_batch.cc; not for use outside the compile service.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "base/result.h"
#include "eval/compile_cache.h"
#include "eval/compiler.h"

namespace eval::detail {

inline constexpr const char* kPchHeader = "refinery_torch_all.h";
inline constexpr unsigned kFolderMode = kCacheFolderMode, kFileMode = kCacheFileMode;

// -std, -O, LibTorch's defines and include folders.
std::vector<std::string> common_flags(const Toolchain& t);
// LibTorch's libraries, with an rpath to them.
std::vector<std::string> link_flags(const Toolchain& t, bool cuda, bool nvcc);
// argv as one shell-quoted line, for the record.
std::string quote_command(const std::vector<std::string>& argv);
// The compiler's environment: PATH, HOME, TMPDIR and a few more, LC_ALL=C.
std::vector<std::string> compiler_env();
// Makes dir and everything under it private to its owner (kFolderMode and
// kFileMode), whatever the umask was when it was written.
base::Status seal(const std::filesystem::path& dir);

}  // namespace eval::detail
