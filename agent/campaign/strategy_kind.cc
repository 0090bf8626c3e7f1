#include "agent/campaign/strategy_kind.h"

#include "base/table.h"

namespace agent {
namespace {

constexpr StrategyKindRow kKinds[] = {
    {StrategyKind::single_shot, "single_shot", false},
    {StrategyKind::refine, "refine", false},
    {StrategyKind::best_of_k_refine, "best_of_k_refine", false},
    {StrategyKind::beam, "beam", true},
    {StrategyKind::evolve, "evolve", true},
};

constexpr HistoryRow kHistories[] = {
    {History::full, "full"},
    {History::last, "last"},
};

constexpr PromptStyleRow kPromptStyles[] = {
    {PromptStyle::refinery, "refinery"},
    {PromptStyle::kernelbench, "kernelbench"},
};

constexpr KernelLanguageRow kKernelLanguages[] = {
    {KernelLanguage::cuda, "cuda", "custom CUDA kernels, compiled with torch.utils.cpp_extension.load_inline",
     "kernelbench_example_cuda"},
    {KernelLanguage::triton, "triton", "custom Triton kernels (@triton.jit)", "kernelbench_example_triton"},
    {KernelLanguage::cpp, "cpp", "custom C++ kernels for the CPU, compiled with torch.utils.cpp_extension.load_inline",
     "kernelbench_example_cpp"},
};

static_assert(base::in_enum_order(kKinds) && base::in_enum_order(kHistories) && base::in_enum_order(kPromptStyles) &&
                  base::in_enum_order(kKernelLanguages),
              "rows must follow their enum's order");

}  // namespace

std::span<const StrategyKindRow> strategy_kinds() {
  return kKinds;
}
std::span<const HistoryRow> histories() {
  return kHistories;
}
std::span<const PromptStyleRow> prompt_styles() {
  return kPromptStyles;
}
std::span<const KernelLanguageRow> kernel_languages() {
  return kKernelLanguages;
}
const KernelLanguageRow& kernel_language(KernelLanguage id) {
  return base::row_at(kKernelLanguages, id);
}
std::string to_string(StrategyKind kind) {
  return base::row_at(kKinds, kind).name;
}
std::string to_string(History history) {
  return base::row_at(kHistories, history).name;
}

base::Result<StrategyKind> parse_strategy_kind(const std::string& name) {
  TRY_ASSIGN(const StrategyKindRow* row, base::find_row(strategy_kinds(), name, "strategy kind"));
  return row->id;
}

base::Result<History> parse_history(const std::string& name) {
  TRY_ASSIGN(const HistoryRow* row, base::find_row(histories(), name, "history"));
  return row->id;
}

}  // namespace agent
