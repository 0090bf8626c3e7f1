#include "agent/cli/printer.h"

#include <unistd.h>

#include <cstdlib>

#include "base/text.h"

namespace agent {

Printer::Printer(FILE* out) : out_(out) {
  const char* no_colour = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  colour_ = isatty(fileno(out)) && !(no_colour && *no_colour) && !(term && std::string(term) == "dumb");
}

void Printer::line(const std::string& text) {
  std::fprintf(out_, "%s\n", text.c_str());
  std::fflush(out_);
}

void Printer::failed(const std::string& what, const std::string& details) {
  line(red("FAILED: ") + what);
  for (const auto& l : base::split(base::trim(details), '\n'))
    if (!l.empty()) line("  " + l);
}

std::string Printer::wrap(const char* code, const std::string& text) const {
  return colour_ ? std::string("\033[") + code + "m" + text + "\033[0m" : text;
}
std::string Printer::bold(const std::string& text) const {
  return wrap("1", text);
}
std::string Printer::green(const std::string& text) const {
  return wrap("32", text);
}
std::string Printer::red(const std::string& text) const {
  return wrap("31", text);
}

}  // namespace agent
