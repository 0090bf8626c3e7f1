// A Python candidate's build product: one file that holds the module's source
// and every library its load_inline (or load) calls built, by the name the
// call gave. The compile cache stores it as an entry's lib.so, the judge
// seals it into a descriptor as it does a C++ library, and the runner reads
// it from there (eval/worker/python_loader.h); nothing of it is a path.
//
//   refinery-python-bundle-v1\n
//   {"files":[{"name":..., "kind":"source"|"extension"|"library", "bytes":N}, ...]}\n
//   the files' bytes, in that order
//
// "extension" is a Python extension module (load_inline's default);
// "library" one built with is_python_module=False, which the module loads as
// torch.ops; "triton_cache" a file of Triton's cache (named by its path
// there) that the build's one forward filled. Constant functions, no state.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"

namespace eval {

struct BundleFile {
  std::string name;  // the source: "model_new.py"; a build: the name its call gave
  std::string kind;  // "source", "extension", "library" or "triton_cache"
  std::string bytes;
};

std::string write_bundle(const std::vector<BundleFile>& files);
// The files of a bundle, or an Error saying what is malformed.
base::Result<std::vector<BundleFile>> read_bundle(const std::string& data);

}  // namespace eval
