// The strategy kinds a config may name, and the histories a refine strategy
// may carry, one row each: the row gives the config its name, and
// make_strategy (strategy.h) dispatches on the kind in a switch without a
// default, so that -Wswitch lists every place a new kind must go. Constant
// data, safe from any thread.
#pragma once

#include <span>
#include <string>

#include "base/result.h"

namespace agent {

enum class StrategyKind { single_shot, refine, best_of_k_refine, beam, evolve };

// What earlier turns a refine strategy's prompt carries.
enum class History { full, last };

struct StrategyKindRow {
  StrategyKind id;
  const char* name;  // as the config spells it: `kind: NAME`
  bool branching;    // a search over a tree of attempts per problem (strategy.h's Search), not chains
};

struct HistoryRow {
  History id;
  const char* name;  // `history: NAME`
};

// Which prompt a strategy's chains get: refinery's own (the C++ reference,
// one C++ or CUDA file with `forward`), or KernelBench's (the PyTorch
// reference, a Python module defining ModelNew, with a one-shot example).
enum class PromptStyle { refinery, kernelbench };

struct PromptStyleRow {
  PromptStyle id;
  const char* name;  // `prompt: NAME`
};

// What a kernelbench prompt asks ModelNew's kernels to be written in: CUDA
// through load_inline, Triton, or C++ through load_inline (cpu).
enum class KernelLanguage { cuda, triton, cpp };

struct KernelLanguageRow {
  KernelLanguage id;
  const char* name;     // `kernels: NAME`
  const char* wording;  // how the prompt names it: "custom CUDA kernels (through load_inline)"
  const char* example;  // the template holding its one-shot example: "kernelbench_example_cuda"
};

std::span<const StrategyKindRow> strategy_kinds();
std::span<const PromptStyleRow> prompt_styles();
std::span<const KernelLanguageRow> kernel_languages();
const KernelLanguageRow& kernel_language(KernelLanguage id);
std::span<const HistoryRow> histories();
std::string to_string(StrategyKind kind);
std::string to_string(History history);
// The row named `name`, or an error naming every allowed one.
base::Result<StrategyKind> parse_strategy_kind(const std::string& name);
base::Result<History> parse_history(const std::string& name);

}  // namespace agent
