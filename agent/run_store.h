// A campaign's run folder: the frozen config, append-only JSON-lines logs,
// and per-attempt artifacts. What makes campaigns resumable:
//
//   RUN/config.yaml        the config as given when the run started
//   RUN/responses.jsonl    each model response, appended and fsync'ed the
//                          moment it arrives, before it is evaluated, so a
//                          response is never requested (or paid for) twice
//   RUN/attempts.jsonl     one record per finished attempt, appended and
//                          fsync'ed as each finishes
//   RUN/attempts/<model>/<strategy>/<problem>/s<sample>/t<turn>/
//                          prompt.txt, response.txt, candidate source,
//                          compile.log, result.json
//
// Opening an existing folder with a different config is refused unless
// forced. Loading skips a torn last line (a run killed mid-write) and keeps
// the first record of a duplicated key. Methods are thread-safe: appends are
// serialised by a mutex and each is one write(2) of a whole line.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace agent {

struct AttemptKey {
  std::string model, strategy, problem;
  int sample = 0;
  int turn = 1;
  std::string str() const;  // "model/strategy/problem/s0/t1"
  bool operator<(const AttemptKey& o) const { return str() < o.str(); }
};

class RunStore {
 public:
  // Creates `dir` with `config_text`, or reopens it. A folder whose frozen
  // config differs is an error naming both files, unless `force`, in which
  // case the new config replaces the old one (the old is kept as
  // config.yaml.<n>).
  static base::Result<RunStore> open(const std::string& dir, const std::string& config_text, bool force);

  base::Status record_response(const AttemptKey& key, const nlohmann::json& response);
  std::optional<nlohmann::json> response(const AttemptKey& key) const;

  base::Status record_attempt(const AttemptKey& key, nlohmann::json record);
  std::optional<nlohmann::json> attempt(const AttemptKey& key) const;
  std::vector<nlohmann::json> attempts() const;  // in the order they finished

  // The attempt's artifact folder, created on first use.
  base::Result<std::string> artifact_dir(const AttemptKey& key) const;
  const std::string& dir() const { return dir_; }
  // Lines that could not be read when the store was opened ("attempts.jsonl:12: ...").
  const std::vector<std::string>& warnings() const { return warnings_; }

  RunStore(RunStore&& other) noexcept;

 private:
  RunStore() = default;
  base::Status append(const std::string& file, const nlohmann::json& line);
  std::optional<nlohmann::json> find(const std::map<std::string, nlohmann::json>& in, const AttemptKey& key) const;
  void load(const std::string& file, std::map<std::string, nlohmann::json>& into,
            std::vector<std::string>* order);

  std::string dir_;
  mutable std::mutex mutex_;
  std::map<std::string, nlohmann::json> responses_, attempts_;
  std::vector<std::string> attempt_order_;
  std::vector<std::string> warnings_;
};

}  // namespace agent
