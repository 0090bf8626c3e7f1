// A lexer just deep enough for the static checks (eval/build/static_checks.h):
// comments and literals blanked with offsets kept, and the identifiers of
// what is left with their qualifiers and whether they are called. It is not
// a C++ parser; the static checks run it over the preprocessed source too.
#pragma once

#include <string>
#include <vector>

namespace eval {

// The source with comments blanked (newlines kept, so offsets keep their
// lines); `keep_strings` false also blanks the contents of string and
// character literals (their quotes stay).
std::string blank_comments(const std::string& source, bool keep_strings);

bool is_ident_char(char c);

struct SourceToken {
  size_t pos;
  std::string name;       // the identifier
  std::string qualifier;  // "std", "at::cuda", "torch::nn::functional" ...: what precedes "::"
  char before;            // the character before the qualified name, past spaces ('.', '>' for ->, ...)
  bool call;              // followed by '(' (past spaces and template arguments)
};

// Every identifier of `code` (numbers left out), in order.
std::vector<SourceToken> source_tokens(const std::string& code);

}  // namespace eval
