#include "agent/campaign/extract.h"

#include <vector>

#include "base/text.h"

namespace agent {
namespace {

struct Block {
  std::string language, code;
  bool closed = false;
};

std::string without_thinking(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (true) {
    size_t open = text.find("<think>", pos);
    if (open == std::string::npos) break;
    out += text.substr(pos, open - pos);
    size_t close = text.find("</think>", open);
    if (close == std::string::npos) return out;  // all thinking from here on
    pos = close + 8;
  }
  return out + text.substr(pos);
}

// The fence that opens or closes on this line: its character and length, or 0.
size_t fence_length(const std::string& line, char* fence_char) {
  std::string t = base::trim(line);
  if (t.size() < 3 || (t[0] != '`' && t[0] != '~')) return 0;
  size_t n = 0;
  while (n < t.size() && t[n] == t[0]) ++n;
  if (n < 3) return 0;
  *fence_char = t[0];
  return n;
}

std::vector<Block> find_blocks(const std::string& text) {
  std::vector<Block> blocks;
  std::vector<std::string> lines = base::split(text, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    char c = 0;
    size_t n = fence_length(lines[i], &c);
    if (!n) continue;
    Block b;
    b.language = base::trim(base::trim(lines[i]).substr(n));
    if (auto space = b.language.find(' '); space != std::string::npos) b.language.resize(space);
    size_t j = i + 1;
    for (; j < lines.size(); ++j) {
      char cc = 0;
      size_t m = fence_length(lines[j], &cc);
      if (m >= n && cc == c && base::trim(lines[j]).size() == m) {
        b.closed = true;
        break;
      }
      b.code += lines[j] + "\n";
    }
    blocks.push_back(std::move(b));
    i = j;
  }
  return blocks;
}

bool defines_forward(const std::string& code) {
  return code.find("forward(") != std::string::npos;
}

}  // namespace

Extraction extract_code(const std::string& response, const eval::Language& language) {
  auto ours = [&](const Block& b) { return language.takes_fence(b.language); };
  Extraction e;
  std::vector<Block> blocks = find_blocks(without_thinking(response));
  e.blocks = static_cast<int>(blocks.size());
  if (blocks.empty()) {
    e.note = "the response has no fenced code block";
    return e;
  }
  // Blocks in the candidate's language first; a block in another is chosen
  // only when no such block will do, and then reported as what it is.
  const Block* chosen = nullptr;
  for (int pass = 0; pass < 2 && !chosen; ++pass)
    for (const auto& b : blocks)
      if (defines_forward(b.code) && (pass == 1 || ours(b))) chosen = &b;
  if (chosen) {
    e.note = blocks.size() == 1 ? "the only code block"
                                : "the last of " + std::to_string(blocks.size()) + " code blocks that define forward()";
  } else {
    for (int pass = 0; pass < 2 && !chosen; ++pass)
      for (const auto& b : blocks)
        if ((pass == 1 || ours(b)) && (!chosen || b.code.size() > chosen->code.size())) chosen = &b;
    e.note = "no code block defines forward(); took the longest";
  }
  if (!ours(*chosen)) {
    e.language = chosen->language;
    e.note = "the code block is tagged `" + chosen->language + "`: refinery compiles " + language.answer +
             " that defines forward(), not " + chosen->language + " code";
    return e;
  }
  if (base::trim(chosen->code).empty()) {
    e.note = "the code block is empty";
    return e;
  }
  e.code = chosen->code;
  e.language = chosen->language;
  e.unterminated = !chosen->closed;
  if (e.unterminated) e.note += " (unterminated: the response ended inside it)";
  return e;
}

}  // namespace agent
