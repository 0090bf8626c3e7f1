#include "eval/build/source_lexer.h"

#include <algorithm>
#include <cctype>

namespace eval {

std::string blank_comments(const std::string& s, bool keep_strings) {
  std::string out = s;
  size_t i = 0;
  const size_t n = s.size();
  auto wipe = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < n; ++k)
      if (out[k] != '\n') out[k] = ' ';
  };
  while (i < n) {
    if (s.compare(i, 2, "//") == 0) {
      size_t end = s.find('\n', i);
      if (end == std::string::npos) end = n;
      wipe(i, end);
      i = end;
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t end = s.find("*/", i + 2);
      end = end == std::string::npos ? n : end + 2;
      wipe(i, end);
      i = end;
    } else if (s[i] == 'R' && i + 1 < n && s[i + 1] == '"' &&
               (i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_'))) {
      // R"delim( ... )delim"
      size_t open = s.find('(', i + 2);
      if (open == std::string::npos) break;
      std::string close = ")" + s.substr(i + 2, open - i - 2) + "\"";
      size_t end = s.find(close, open + 1);
      end = end == std::string::npos ? n : end + close.size();
      if (!keep_strings) wipe(open + 1, end - 1);
      i = end;
    } else if (s[i] == '"' || s[i] == '\'') {
      // A quote after a digit is a digit separator (1'000'000), not a literal.
      if (s[i] == '\'' && i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1]))) {
        ++i;
        continue;
      }
      const char q = s[i];
      size_t k = i + 1;
      while (k < n && s[k] != q && s[k] != '\n') k += s[k] == '\\' ? 2 : 1;
      if (!keep_strings) wipe(i + 1, k);
      i = std::min(n, k + 1);
    } else {
      ++i;
    }
  }
  return out;
}

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::vector<SourceToken> source_tokens(const std::string& code) {
  std::vector<SourceToken> out;
  const size_t n = code.size();
  size_t i = 0;
  while (i < n) {
    if (!is_ident_char(code[i]) || (i > 0 && is_ident_char(code[i - 1]))) {
      ++i;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(code[i]))) {
      while (i < n && is_ident_char(code[i])) ++i;
      continue;
    }
    size_t start = i;
    while (i < n && is_ident_char(code[i])) ++i;
    SourceToken t{start, code.substr(start, i - start), "", ' ', false};
    // The qualifier: identifiers joined by "::" right before it.
    size_t q = start;
    std::vector<std::string> parts;
    while (q >= 2 && code[q - 1] == ':' && code[q - 2] == ':') {
      size_t e = q - 2, b = e;
      while (b > 0 && is_ident_char(code[b - 1])) --b;
      if (b == e) {
        q = e;
        break;
      }  // "::name": the global namespace
      parts.insert(parts.begin(), code.substr(b, e - b));
      q = b;
    }
    for (size_t k = 0; k < parts.size(); ++k) t.qualifier += (k ? "::" : "") + parts[k];
    size_t b = q;
    while (b > 0 && std::isspace(static_cast<unsigned char>(code[b - 1]))) --b;
    t.before = b > 0 ? code[b - 1] : ' ';
    size_t a = i;
    while (a < n && std::isspace(static_cast<unsigned char>(code[a]))) ++a;
    if (a < n && code[a] == '<') {  // template arguments, balanced, on one statement
      int depth = 0;
      size_t k = a;
      for (; k < n; ++k) {
        if (code[k] == '<')
          ++depth;
        else if (code[k] == '>' && --depth == 0)
          break;
        else if (code[k] == ';' || code[k] == '{')
          break;
      }
      if (k < n && code[k] == '>') {
        a = k + 1;
        while (a < n && std::isspace(static_cast<unsigned char>(code[a]))) ++a;
      }
    }
    t.call = a < n && code[a] == '(';
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace eval
