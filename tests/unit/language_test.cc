#include <doctest/doctest.h>

#include "eval/build/language.h"
#include "eval/job.h"

using eval::Build;
using eval::Checks;
using eval::LanguageId;
using eval::Loader;

TEST_SUITE("eval::Language") {
  TEST_CASE("each row: C++ is candidate.cpp built by g++, CUDA C++ candidate.cu by nvcc, Python candidate.py") {
    struct Expected {
      LanguageId id;
      const char *name, *prompt_name, *file;
      Build build;
      Loader loader;
      Checks checks;
    };
    const Expected rows[] = {
        {LanguageId::cxx, "cpp", "C++", "candidate.cpp", Build::gxx, Loader::shared_library, Checks::c_family},
        {LanguageId::cuda_cxx, "cuda", "CUDA C++", "candidate.cu", Build::nvcc, Loader::shared_library,
         Checks::c_family},
        {LanguageId::python, "python", "Python (a ModelNew module)", "candidate.py", Build::python, Loader::python,
         Checks::python}};
    REQUIRE(eval::languages().size() == std::size(rows));
    for (const auto& want : rows) {
      const eval::Language& l = eval::language(want.id);
      CHECK(l.id == want.id);
      CHECK(std::string(l.name) == want.name);
      CHECK(std::string(l.prompt_name) == want.prompt_name);
      CHECK(l.candidate_file() == want.file);
      CHECK(l.build == want.build);
      CHECK(l.loader == want.loader);
      CHECK(l.checks == want.checks);
    }
  }

  TEST_CASE("C++ and CUDA take C and CUDA fence tags in any case, and untagged blocks; not python") {
    for (LanguageId id : {LanguageId::cxx, LanguageId::cuda_cxx}) {
      const eval::Language& l = eval::language(id);
      for (const char* tag : {"", "cpp", "C++", "cuda", "CUDA", "cu", "c", "cc", "cxx", "cuh", "h", "hpp", "hh"})
        CHECK_MESSAGE(l.takes_fence(tag), l.name << " refuses " << tag);
      CHECK_FALSE(l.takes_fence("python"));
      CHECK_FALSE(l.takes_fence("py"));
      CHECK(std::string(l.answer) == "one C++ or CUDA source file (```cpp or ```cuda)");
    }
  }

  TEST_CASE("Python takes python and py blocks only") {
    const eval::Language& py = eval::language(LanguageId::python);
    for (const char* tag : {"python", "Python", "py", "python3"}) CHECK_MESSAGE(py.takes_fence(tag), tag);
    for (const char* tag : {"", "cpp", "cuda", "c"}) CHECK_FALSE_MESSAGE(py.takes_fence(tag), tag);
  }

  TEST_CASE("each backend's candidates are written in one language by default") {
    CHECK(eval::language_for(eval::Backend::cpu) == LanguageId::cxx);
    CHECK(eval::language_for(eval::Backend::cuda) == LanguageId::cuda_cxx);
  }

  TEST_CASE("every name parses to its row; an unknown name is an error naming them all") {
    for (const auto& l : eval::languages()) {
      auto id = eval::parse_language(l.name);
      REQUIRE(id.ok());
      CHECK(*id == l.id);
    }
    auto bad = eval::parse_language("triton");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message == "unknown language 'triton' (expected one of: cpp, cuda, python)");
  }
}
