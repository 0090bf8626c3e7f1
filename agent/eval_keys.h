// The one table of an evaluation's settings (eval::EvalSettings): each row
// names a knob's key in a config's `eval:` section and its flag of `refinery
// eval`, `problems check` and `doctor`, with the flag's help line, and decodes
// either through one function, so that a key and its flag cannot drift apart.
// A row without a key or without a flag says why.
//
// The YAML side gives errors with file:line:col and a caret, the flag side
// usage errors naming the flag (base/yaml_decode.h, agent/cli/args.h). Compat
// presets are not applied here: the worker job gets them last (eval::make_job).
// The table is immutable; everything here is safe to call from any thread.
#pragma once

#include <string>
#include <vector>

#include "agent/cli/args.h"
#include "base/result.h"
#include "base/yaml_decode.h"
#include "eval/settings.h"

namespace agent {

// One key's value, from YAML or from a flag, in the forms the rows read.
class KeySource {
 public:
  virtual ~KeySource() = default;
  virtual base::Result<int64_t> integer(int64_t min, int64_t max) = 0;
  virtual base::Result<double> number(double min, double max) = 0;
  virtual base::Result<std::string> text() = 0;
  virtual base::Result<std::string> choice(const std::vector<std::string>& choices) = 0;
  // YAML: true or false; a flag without a value: given, as its row says.
  virtual base::Result<bool> boolean() = 0;
  // A YAML sequence's items (a map's as KEY=VALUE, a scalar as one item), or
  // a flag's comma-separated value, trimmed, empty ones left out.
  virtual base::Result<std::vector<std::string>> items() = 0;
  // "'devices'" or "--devices", for messages.
  virtual std::string name() const = 0;
  // An error about the value, or about item `index` of items().
  virtual base::Error error(const std::string& message, int index = -1) const = 0;
};

// How a row's flag is given: with a value, or alone meaning true or false.
enum class FlagForm { value, given_true, given_false };

struct EvalKey {
  std::string key;   // in a config's eval: section; empty: none (why_not says why)
  std::string flag;  // without dashes; empty: none (why_not says why)
  FlagForm form = FlagForm::value;
  std::string help;     // the flag's --help line
  std::string why_not;  // why the key or the flag is missing
  base::Status (*decode)(KeySource& source, eval::EvalSettings& settings);
  // An earlier name of both the key and the flag, still accepted with a
  // deprecation note (never both names at once); empty: none.
  std::string old_name = {};
};

const std::vector<EvalKey>& eval_keys();

// The flags of the table, in its order, and --json: shared by eval, problems check and doctor.
const std::vector<FlagSpec>& eval_flags();

// A config's eval: section over `settings` (unknown keys are errors); a key
// given by its old name adds a deprecation note to `notes`.
base::Status decode_eval_section(const base::yaml::Document& doc, const YAML::Node& section,
                                 eval::EvalSettings& settings, std::vector<std::string>* notes = nullptr);

// The table's flags among `args`, over defaults; a bad value is a usage
// error. A flag given by its old name adds a deprecation note to `notes`.
base::Result<eval::EvalSettings> eval_settings_from_args(const Args& args, std::vector<std::string>* notes = nullptr);

}  // namespace agent
