// What is recorded of a compile, and so what the model reads: the compiler's
// output with the compile cache's host paths taken out, and, where refinery
// can say in one line what went wrong (its shim's checks of forward's
// signature, pybind11 code in a file loaded without Python), those lines
// first, then a blank line, then the compiler's output. Pure text.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace eval {

// A host path as it appears in compiler output, and what to write instead.
struct PathRewrite {
  std::string from;  // e.g. "/home/u/.cache/refinery/tmp/compile-ab12/"
  std::string to;    // e.g. ""
};

std::string clean_compile_log(const std::string& log, const std::vector<PathRewrite>& rewrites);

// The one-line errors clean_compile_log put first ("refinery: error: ..."), or "".
std::string refinery_errors(const std::string& cleaned_log);

}  // namespace eval
