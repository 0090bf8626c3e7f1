// The providers a model config may name, one row each: the name the config
// spells, the API it speaks and that API's wire details (its endpoint, the
// key's variable, the field that caps output tokens, the key that sets how
// much the model reasons). The config takes its names from these rows and
// the wire code (provider.cc) dispatches on the row's Api in switches
// without a default, so that -Wswitch lists every place a new API must go;
// a provider that speaks an existing API is a new row alone. Constant data,
// safe from any thread.
#pragma once

#include <span>
#include <string>

#include "base/result.h"

namespace agent {

enum class Provider { openai, openai_responses, openai_compatible, anthropic, replay };

// What goes over the wire.
enum class Api {
  chat_completions,    // POST {base_url}/chat/completions
  responses,           // POST {base_url}/responses
  anthropic_messages,  // POST {base_url}/v1/messages
  recorded,            // none: responses come from a file or an earlier run (agent/model/replay.h)
};

// Whether the API is asked over HTTP (every one but replay's recordings).
inline bool over_http(Api api) {
  switch (api) {
    case Api::chat_completions:
    case Api::responses:
    case Api::anthropic_messages:
      return true;
    case Api::recorded:
      return false;
  }
  return false;
}

struct ProviderRow {
  Provider id;
  const char* name;  // as the config spells it: `provider: NAME`
  Api api;
  const char* base_url;          // the public endpoint; "" where the config must give base_url
  const char* api_key_env;       // the key's variable unless api_key_env says; "" for none
  const char* max_tokens_field;  // the request field that caps output tokens (the config's max_output_tokens)
  const char* reasoning_key;     // the config key that sets reasoning (reasoning_effort, thinking_budget), or ""
};

// Every row, in the order the config's errors list them.
std::span<const ProviderRow> providers();
const ProviderRow& provider_row(Provider provider);
std::string to_string(Provider provider);
// The row named `name`, or an error naming every provider.
base::Result<Provider> parse_provider(const std::string& name);

}  // namespace agent
