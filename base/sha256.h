// SHA-256 of a byte string, as 64 lowercase hex digits. Used for
// content-addressed caches. Pure; safe from any thread.
#pragma once

#include <string>
#include <string_view>

namespace base {

std::string sha256_hex(std::string_view data);

}  // namespace base
