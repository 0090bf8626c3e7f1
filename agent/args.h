// Command-line flags for refinery's subcommands: positionals, `--name value`,
// `--name=value` and boolean `--name`. Each subcommand declares its flags;
// an unknown flag is a usage error that suggests the closest known one.
// Not synchronised.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace agent {

struct FlagSpec {
  std::string name;    // without the dashes
  bool takes_value = true;
  std::string help;
};

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;  // booleans map to "true"

  bool has(const std::string& name) const { return values.count(name) > 0; }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  base::Result<double> number(const std::string& name, double fallback) const;
};

base::Result<Args> parse_args(const std::vector<std::string>& argv, const std::vector<FlagSpec>& flags);

// "  --size small|full   which size preset" lines for usage text.
std::string flags_help(const std::vector<FlagSpec>& flags);

}  // namespace agent
