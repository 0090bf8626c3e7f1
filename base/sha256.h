// SHA-256 of a byte string or a file, as 64 lowercase hex digits. Used for
// content-addressed caches and to check what they hold. Safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace base {

std::string sha256_hex(std::string_view data);
// The digest of a file's bytes; an Error names the path.
Result<std::string> sha256_file_hex(const std::string& path);

}  // namespace base
