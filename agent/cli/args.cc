#include "agent/cli/args.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "base/text.h"

namespace agent {

std::string Args::get(const std::string& name, const std::string& fallback) const {
  auto it = values.find(name);
  return it == values.end() ? fallback : it->second;
}

base::Result<double> Args::number(const std::string& name, double fallback, double min, double max) const {
  auto it = values.find(name);
  if (it == values.end()) return fallback;
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(it->second.c_str(), &end);
  if (it->second.empty() || *end != '\0' || !std::isfinite(v) || v < min || v > max)
    return base::usage_error("--" + name + " must be a number between " + base::format_number(min) + " and " +
                             base::format_number(max) + ", got '" + it->second + "'");
  return v;
}

base::Result<int64_t> Args::integer(const std::string& name, int64_t fallback, int64_t min, int64_t max) const {
  auto it = values.find(name);
  if (it == values.end()) return fallback;
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(it->second.c_str(), &end, 10);
  if (it->second.empty() || *end != '\0' || errno == ERANGE || v < min || v > max)
    return base::usage_error("--" + name + " must be an integer between " + std::to_string(min) + " and " +
                             std::to_string(max) + ", got '" + it->second + "'");
  return static_cast<int64_t>(v);
}

base::Result<Args> parse_args(const std::vector<std::string>& argv, const std::vector<FlagSpec>& flags) {
  Args args;
  std::vector<std::string> names;
  for (const auto& f : flags) names.push_back(f.name);
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    // run_cli sends a command's usage to stdout and exits 0 for these.
    if (a == "--help" || a == "-h") return base::usage_error("its usage follows");
    if (!base::starts_with(a, "--") || a == "--") {
      args.positional.push_back(a);
      continue;
    }
    std::string name = a.substr(2), value;
    bool inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    const FlagSpec* spec = nullptr;
    for (const auto& f : flags)
      if (f.name == name) spec = &f;
    if (!spec) {
      std::string message = "unknown flag --" + name;
      if (auto guess = base::closest_match(name, names)) message += " (did you mean --" + *guess + "?)";
      return base::usage_error(message);
    }
    if (spec->takes_value && !inline_value) {
      if (i + 1 >= argv.size()) return base::usage_error("--" + name + " needs a value");
      value = argv[++i];
    } else if (!spec->takes_value) {
      if (inline_value) return base::usage_error("--" + name + " takes no value");
      value = "true";
    }
    args.values[name] = value;
  }
  return args;
}

std::string flags_help(const std::vector<FlagSpec>& flags) {
  std::string out;
  for (const auto& f : flags) {
    std::string left = "  --" + f.name + (f.takes_value ? " VALUE" : "");
    if (left.size() < 26) left.resize(26, ' ');
    out += left + " " + f.help + "\n";
  }
  return out;
}

}  // namespace agent
