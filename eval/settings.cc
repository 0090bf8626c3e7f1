#include "eval/settings.h"

namespace eval {

std::string to_string(Mode mode) { return mode == Mode::kernelbench ? "kernelbench" : "refinery"; }

base::Result<Mode> parse_mode(const std::string& name) {
  if (name == "refinery") return Mode::refinery;
  if (name == "kernelbench") return Mode::kernelbench;
  return base::Error{"unknown mode '" + name + "' (expected refinery or kernelbench)"};
}

std::string to_string(Profiler profiler) {
  switch (profiler) {
    case Profiler::automatic: return "auto";
    case Profiler::none: return "none";
    case Profiler::cupti: return "cupti";
    case Profiler::ncu: return "ncu";
  }
  return "none";
}

base::Result<Profiler> parse_profiler(const std::string& name) {
  for (Profiler p : {Profiler::automatic, Profiler::none, Profiler::cupti, Profiler::ncu})
    if (to_string(p) == name) return p;
  return base::Error{"unknown profiler '" + name + "' (expected auto, none, cupti or ncu)"};
}

}  // namespace eval
