#include "eval/build/language.h"

#include <cctype>

#include "base/table.h"
#include "eval/job.h"

namespace eval {
namespace {

// C++ and CUDA C++ take each other's tags: models tag CUDA sources ```cpp
// as often as ```cuda, and a C++ answer ```cuda.
constexpr std::string_view kCFamilyTags[] = {"", "c", "cpp", "c++", "cxx", "cc", "cu", "cuda", "cuh", "h", "hpp", "hh"};
constexpr const char* kCFamilyAnswer = "one C++ or CUDA source file (```cpp or ```cuda)";

constexpr std::string_view kPythonTags[] = {"python", "py", "python3"};

constexpr Language kRows[] = {
    {LanguageId::cxx, "cpp", "C++", ".cpp", kCFamilyTags, kCFamilyAnswer, Build::gxx, Loader::shared_library,
     Checks::c_family},
    {LanguageId::cuda_cxx, "cuda", "CUDA C++", ".cu", kCFamilyTags, kCFamilyAnswer, Build::nvcc, Loader::shared_library,
     Checks::c_family},
    {LanguageId::python, "python", "Python (a ModelNew module)", ".py", kPythonTags,
     "one Python module that defines class ModelNew (```python)", Build::python, Loader::python, Checks::python},
};
static_assert(base::in_enum_order(kRows), "kRows must list the languages in the order of enum LanguageId");

}  // namespace

bool Language::takes_fence(std::string_view tag) const {
  std::string lower(tag);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view ok : fence_tags)
    if (lower == ok) return true;
  return false;
}

std::span<const Language> languages() {
  return kRows;
}
const Language& language(LanguageId id) {
  return base::row_at(kRows, id);
}

base::Result<LanguageId> parse_language(const std::string& name) {
  TRY_ASSIGN(const Language* row, base::find_row(languages(), name, "language"));
  return row->id;
}

LanguageId language_for(Backend backend) {
  switch (backend) {
    case Backend::cpu:
      return LanguageId::cxx;
    case Backend::cuda:
      return LanguageId::cuda_cxx;
  }
  return LanguageId::cxx;  // not a Backend
}

}  // namespace eval
