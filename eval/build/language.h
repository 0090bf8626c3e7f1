// The candidate's language: what a model writes its kernel in, apart from the
// backend (the device it runs on). One row per language owns everything that
// differs between languages: the fence tags a response's code block may
// carry, the candidate's file name, what the prompt calls the language, which
// static checks read the source, the build step that turns it into what the
// runner loads, and how the runner loads that. The judge, the protocol
// between judge and runner, the statuses and the records are the same for
// every language.
//
// Adding a language is one row here, plus its build step (a Build value and
// its case in CompileService::compile) and its loader (a Loader value and its
// case in the runner's load), where needed a Checks value and its case in the
// evaluator; each of those is a switch without a default, so -Wswitch lists
// every place. A language whose build step is "none: the interpreter imports
// it" and whose loader is an interpreter in the runner fits the same row.
//
// Each backend has a default language (language_for); Python runs on both.
// References are C++ on every backend. Constant data, safe from any thread.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace eval {

enum class Backend;  // job.h, which names a job's candidate language by this table

enum class LanguageId { cxx, cuda_cxx, python };

// How a source becomes what the runner loads.
enum class Build {
  gxx,   // the host C++ compiler, with the precompiled LibTorch header: a shared library
  nvcc,  // nvcc for the GPU's architecture (lean headers where safe): a shared library
  // The interpreter imports the module in the compilers' sandbox, where every
  // load_inline it calls builds (g++, nvcc): a bundle of the source and what
  // was built (python_bundle.h).
  python,
};

// How the runner loads what the build made.
enum class Loader {
  shared_library,  // dlopen, then the shim's entry point (shim.h)
  // refinery-python-runner: an interpreter in the runner that loads the
  // bundle, builds ModelNew with the problem's dims and binds the judge's
  // weights to its parameters (eval/worker/python_loader.h).
  python,
};

// Which static checks (static_checks.h) read the source.
enum class Checks {
  c_family,  // the lexical rules for C, C++ and CUDA, on the source and its preprocessed lines
  python,    // the rules for Python modules, and the C family's on the sources they build inline
};

struct Language {
  LanguageId id;
  const char* name;         // as jobs and flags spell it: "cpp", "cuda"
  const char* prompt_name;  // what the prompt calls it: "C++", "CUDA C++"
  const char* extension;    // of the candidate's file: ".cpp"; the file is candidate_file()
  // The info strings of a fenced block that may hold this language's code
  // (lower case; "" is a block without one); blocks with others are no code.
  std::span<const std::string_view> fence_tags;
  // How the extraction's note names the expected answer: "one C++ or CUDA
  // source file (```cpp or ```cuda)".
  const char* answer;
  Build build;
  Loader loader;
  Checks checks;

  std::string candidate_file() const { return std::string("candidate") + extension; }
  // Whether a fenced block tagged `tag` (any case) may hold this language's code.
  bool takes_fence(std::string_view tag) const;
};

std::span<const Language> languages();
const Language& language(LanguageId id);
// The row named `name`, or an error naming every language.
base::Result<LanguageId> parse_language(const std::string& name);
// The language a backend's candidates are written in by default.
LanguageId language_for(Backend backend);

}  // namespace eval
