// Command-line flags for refinery's subcommands: positionals, `--name value`,
// `--name=value` and boolean `--name`. Each subcommand declares its flags;
// an unknown flag is a usage error that suggests the closest known one.
// Not synchronised.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace agent {

struct FlagSpec {
  std::string name;  // without the dashes
  bool takes_value = true;
  std::string help;
};

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;  // booleans map to "true"

  bool has(const std::string& name) const { return values.count(name) > 0; }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  // A flag's value as a finite number (an integer) within [min, max], or
  // `fallback` when the flag is absent; anything else is a usage error that
  // names the flag: "--timeout must be a number between 1 and 86400, got 'inf'".
  base::Result<double> number(const std::string& name, double fallback, double min, double max) const;
  base::Result<int64_t> integer(const std::string& name, int64_t fallback, int64_t min, int64_t max) const;
};

base::Result<Args> parse_args(const std::vector<std::string>& argv, const std::vector<FlagSpec>& flags);

// "  --size small|full   which size preset" lines for usage text.
std::string flags_help(const std::vector<FlagSpec>& flags);

}  // namespace agent
