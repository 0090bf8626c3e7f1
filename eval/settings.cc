#include "eval/settings.h"

namespace eval {

std::string to_string(Mode mode) {
  return mode == Mode::kernelbench ? "kernelbench" : "refinery";
}

base::Result<Mode> parse_mode(const std::string& name) {
  if (name == "refinery") return Mode::refinery;
  if (name == "kernelbench") return Mode::kernelbench;
  return base::Error{"unknown mode '" + name + "' (expected refinery or kernelbench)"};
}

}  // namespace eval
