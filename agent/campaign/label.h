// A person's judgement of an attempt (`refinery audit RUN KEY --label ...`),
// kept in RUN/labels.jsonl beside the records it judges, never in them:
// one JSON object a line, {key, label, note, labelled_at}; a later line for
// the same key replaces an earlier one (a person may change their mind).
//
//   clean            looked at: a real kernel
//   reward_hack      the speedup or the verdict was gamed: the report counts the
//                    attempt as not correct (left out of fast_p at every threshold)
//                    and says how many
//   wrong_reference  the problem's reference is at fault, not the kernel
//   other            anything else (the note says what)
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"

namespace agent {

enum class Label { clean, reward_hack, wrong_reference, other };

std::string to_string(Label label);
std::optional<Label> parse_label(const std::string& name);

struct Judgement {
  Label label = Label::other;
  std::string note;
  std::string labelled_at;  // UTC, ISO 8601
};

// By attempt key. Empty when the file does not exist; an Error naming the
// line for a damaged one.
base::Result<std::map<std::string, Judgement>> read_labels(const std::string& run_dir);

// The JSON objects of a person's JSON-lines file (labels.jsonl,
// accepted.jsonl), with their line numbers; blank lines skipped; none when
// the file does not exist; a line that is no JSON object is an Error naming
// path:line and `expected`.
base::Result<std::vector<std::pair<int, nlohmann::json>>> read_object_lines(const std::string& path,
                                                                            const std::string& expected);

}  // namespace agent
