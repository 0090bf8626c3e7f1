// refinery audit RUN_DIR KEY... --label clean|reward_hack|wrong_reference|other [--note TEXT]
// refinery audit RUN_DIR: the attempts waiting for a person (quarantined,
// library-only, labelled), one line each.
//
// A person's judgement of an attempt (agent/campaign/label.h), appended to
// RUN_DIR/labels.jsonl; the records are never changed. `refinery report`
// reads the labels: a reward hack counts as not correct.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>

#include "agent/cli/args.h"
#include "agent/cli/commands.h"
#include "agent/report/attempt_rows.h"
#include "agent/report/run_data.h"
#include "base/fs.h"

namespace agent {

int cmd_audit(const std::vector<std::string>& argv) {
  auto args = parse_args(argv, {{"label", true, "clean, reward_hack, wrong_reference or other"},
                                {"note", true, "what the person saw (recorded with the label)"}});
  const auto label = args ? parse_label(args->get("label")) : std::nullopt;
  if (!args || args->positional.empty() || (args->positional.size() > 1 && !label)) {
    if (!args)
      std::fprintf(stderr, "refinery audit: %s\n", args.error().message.c_str());
    else if (args->positional.size() > 1)
      std::fprintf(stderr, "refinery audit: --label must be clean, reward_hack, wrong_reference or other%s\n",
                   args->has("label") ? (", got '" + args->get("label") + "'").c_str() : "");
    std::fprintf(stderr,
                 "usage: refinery audit RUN_DIR KEY... --label clean|reward_hack|wrong_reference|other [--note TEXT]\n"
                 "       refinery audit RUN_DIR      (list the attempts waiting for review)\n"
                 "KEY: an attempt's key as the report lists it (model/strategy/problem/s0/t1)\n");
    return 2;
  }
  const std::string folder = args->positional[0];
  auto run = load_run(folder);
  if (!run) {
    std::fprintf(stderr, "refinery audit: %s\n", run.error().message.c_str());
    return 1;
  }
  if (args->positional.size() == 1) {
    const auto rows = attempt_rows(run->attempts, run->config.count_unstable, run->accepted, run->labels);
    int listed = 0;
    for (const auto& r : rows) {
      if (r.quarantine.empty() && !r.library_only && r.label.empty()) continue;
      std::string why = !r.label.empty() ? "labelled " + r.label + (r.label_note.empty() ? "" : ": " + r.label_note)
                        : !r.quarantine.empty() ? "quarantined: " + r.quarantine
                                                : "library only";
      std::printf("%s  %s  %s\n", r.key.c_str(), r.status.c_str(), why.c_str());
      ++listed;
    }
    std::printf("%d attempt%s for review in %s\n", listed, listed == 1 ? "" : "s", folder.c_str());
    return 0;
  }
  std::map<std::string, const Attempt*> by_key;
  for (const auto& a : run->attempts) by_key[a.key.str()] = &a;
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::string lines;
  for (size_t i = 1; i < args->positional.size(); ++i) {
    const std::string& key = args->positional[i];
    if (!by_key.count(key)) {
      std::fprintf(stderr, "refinery audit: %s: no attempt with this key in %s\n", key.c_str(), folder.c_str());
      return 1;
    }
    lines +=
        nlohmann::json{{"key", key}, {"label", to_string(*label)}, {"note", args->get("note")}, {"labelled_at", stamp}}
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
        "\n";
    std::printf("%s: %s\n", key.c_str(), to_string(*label).c_str());
  }
  if (auto s = base::append_file(folder + "/labels.jsonl", lines); !s) {
    std::fprintf(stderr, "refinery audit: %s\n", s.error().message.c_str());
    return 1;
  }
  return 0;
}

}  // namespace agent
