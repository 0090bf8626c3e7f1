// refinery accept RUN_DIR KEY... [--note TEXT]: a person's word that a
// quarantined speedup (eval/verdict/quarantine.h) is real. Appends one line per key
// to RUN_DIR/accepted.jsonl, which `refinery report` reads: the attempt's
// speedup then counts toward fast_p. Only keys of correct, quarantined
// attempts in that run are taken; nothing else in the run folder changes.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>

#include "agent/campaign/label.h"
#include "agent/campaign/run_store.h"
#include "agent/cli/accepted.h"
#include "agent/cli/args.h"
#include "agent/cli/commands.h"
#include "base/fs.h"

namespace agent {
namespace fs = std::filesystem;

base::Result<std::set<std::string>> read_accepted(const std::string& run_dir) {
  TRY_ASSIGN(auto rows, read_object_lines(run_dir + "/accepted.jsonl", "with a string \"key\""));
  std::set<std::string> keys;
  for (const auto& [line, j] : rows) {
    if (!j.contains("key") || !j["key"].is_string())
      return base::Error{run_dir + "/accepted.jsonl:" + std::to_string(line) +
                         ": not a JSON object with a string \"key\""};
    keys.insert(j["key"].get<std::string>());
  }
  return keys;
}

int cmd_accept(const std::vector<std::string>& argv) {
  auto args = parse_args(argv, {{"note", true, "why the speedup is real (recorded with the key)"}});
  if (!args || args->positional.size() < 2) {
    if (!args) std::fprintf(stderr, "refinery accept: %s\n", args.error().message.c_str());
    std::fprintf(stderr,
                 "usage: refinery accept RUN_DIR KEY... [--note TEXT]\n"
                 "KEY: an attempt's key as the report lists it (model/strategy/problem/s0/t1)\n");
    return 2;
  }
  const std::string run = args->positional[0];
  auto config_text = base::read_file(run + "/config.yaml");
  if (!config_text) {
    std::fprintf(stderr, "refinery accept: %s is not a run folder (no config.yaml)\n", run.c_str());
    return 1;
  }
  auto store = RunStore::open(run, *config_text, false, /*exclusive=*/false);
  if (!store) {
    std::fprintf(stderr, "refinery accept: %s\n", store.error().message.c_str());
    return 1;
  }
  std::map<std::string, Attempt> by_key;
  for (auto& a : store->attempts()) by_key[a.key.str()] = a;
  auto already = read_accepted(run);
  if (!already) {
    std::fprintf(stderr, "refinery accept: %s\n", already.error().message.c_str());
    return 1;
  }
  std::string lines;
  for (size_t i = 1; i < args->positional.size(); ++i) {
    const std::string& key = args->positional[i];
    auto it = by_key.find(key);
    if (it == by_key.end()) {
      std::fprintf(stderr, "refinery accept: %s: no attempt with this key in %s\n", key.c_str(), run.c_str());
      return 1;
    }
    if (!it->second.correct() || it->second.quarantine.empty()) {
      std::fprintf(stderr, "refinery accept: %s: not quarantined (%s), nothing to accept\n", key.c_str(),
                   to_string(it->second.status).c_str());
      return 1;
    }
    if (already->count(key)) {
      std::printf("%s: accepted already\n", key.c_str());
      continue;
    }
    const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    lines +=
        nlohmann::json{
            {"key", key}, {"note", args->get("note")}, {"accepted_at", stamp}, {"quarantine", it->second.quarantine}}
            .dump() +
        "\n";
    std::printf("%s: accepted (%s)\n", key.c_str(), it->second.quarantine.c_str());
  }
  if (!lines.empty())
    if (auto s = base::append_file(run + "/accepted.jsonl", lines); !s) {
      std::fprintf(stderr, "refinery accept: %s\n", s.error().message.c_str());
      return 1;
    }
  return 0;
}

}  // namespace agent
