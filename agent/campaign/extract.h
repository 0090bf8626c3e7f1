// Pulling the candidate out of a model's response: the fenced code block
// that holds forward(). Responses come in every shape (several blocks, a
// block cut off by the token limit, language tags or none, reasoning in
// <think> tags, prose only), so the rules are written down here:
//   1. <think>...</think> sections are ignored.
//   2. Fences are ``` or ~~~ (three or more), closed by the same character at
//      least as long; an unclosed block runs to the end and is marked so.
//   3. Among the blocks, those defining forward( win; among those, the last
//      (models revise as they go); with none, the longest block. Blocks
//      with a fence tag of the candidate's language (eval::Language, for
//      C++ and CUDA C++: ```cpp, ```cuda, ... or none) go before all others;
//      a chosen block in another language (```python, a load_inline script)
//      is no code, with a note naming its language and what was expected.
//   4. No block at all: no code.
// Pure functions; safe from any thread.
#pragma once

#include <optional>
#include <string>

#include "eval/build/language.h"

namespace agent {

struct Extraction {
  std::optional<std::string> code;  // absent: the response had no usable block
  std::string language;             // the chosen block's tag, possibly empty
  int blocks = 0;                   // fenced blocks found
  bool unterminated = false;        // the chosen block had no closing fence
  std::string note;                 // why this block, or why none, for feedback
};

Extraction extract_code(const std::string& response, const eval::Language& language);

}  // namespace agent
