#include "agent/model/provider_table.h"

#include "base/table.h"

namespace agent {
namespace {

constexpr ProviderRow kRows[] = {
    // OpenAI's own API, whatever base_url (a proxy, a gateway): it refuses
    // max_tokens from its reasoning models.
    {Provider::openai, "openai", Api::chat_completions, "https://api.openai.com/v1", "OPENAI_API_KEY",
     "max_completion_tokens", "reasoning_effort"},
    {Provider::openai_responses, "openai-responses", Api::responses, "https://api.openai.com/v1", "OPENAI_API_KEY",
     "max_output_tokens", "reasoning_effort"},
    // Every other server that speaks chat completions (vLLM, SGLang,
    // llama.cpp, Ollama, OpenRouter, ...): at its base_url, with no key
    // unless api_key_env names one, so that OpenAI's key goes nowhere else.
    {Provider::openai_compatible, "openai_compatible", Api::chat_completions, "", "", "max_tokens", "reasoning_effort"},
    // base_url is the host, as in Anthropic's SDK.
    {Provider::anthropic, "anthropic", Api::anthropic_messages, "https://api.anthropic.com", "ANTHROPIC_API_KEY",
     "max_tokens", "thinking_budget"},
    {Provider::replay, "replay", Api::recorded, "", "", "", ""},
};

static_assert(base::in_enum_order(kRows), "kRows must list the providers in the order of enum Provider");

}  // namespace

std::span<const ProviderRow> providers() {
  return kRows;
}

const ProviderRow& provider_row(Provider provider) {
  return base::row_at(kRows, provider);
}

std::string to_string(Provider provider) {
  return provider_row(provider).name;
}

base::Result<Provider> parse_provider(const std::string& name) {
  TRY_ASSIGN(const ProviderRow* row, base::find_row(providers(), name, "provider"));
  return row->id;
}

}  // namespace agent
