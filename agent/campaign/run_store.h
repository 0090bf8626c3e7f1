// A campaign's run folder: the frozen config, append-only JSON-lines logs,
// and per-attempt artifacts. What makes campaigns resumable:
//
//   RUN/config.yaml        the config as given when the run started
//   RUN/responses.jsonl    each model response (response.h's record), appended
//                          and fsync'ed the moment it arrives, before it is
//                          evaluated, so a response is never requested (or
//                          paid for) twice
//   RUN/attempts.jsonl     one record per finished attempt, appended and
//                          fsync'ed as each finishes
//   RUN/attempts/<model>/<strategy>/<problem>/s<sample>/t<turn>/
//                          prompt.txt, response.txt, candidate source,
//                          compile.log, result.json
//
// Opening an existing folder with a different config is refused unless
// forced. Loading skips a torn last line (a run killed mid-write; the next
// append starts on a new line) and keeps the first record of a duplicated key.
// Methods are thread-safe: appends are serialised by a mutex and each is one
// write(2) of a whole line.
//
// Memory stays small however long the campaign: the store holds where each
// line is in its log and, for attempts, the record without its long texts
// (response_text, feedback); a whole record is read back from the log when
// asked for. A line that attempt_from_json or response_from_json refuses (a
// field of the wrong type) is skipped with a warning, like an unreadable one.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "agent/campaign/attempt.h"
#include "agent/campaign/response.h"
#include "base/result.h"

namespace agent {

class RunStore {
 public:
  // Creates `dir` with `config_text`, or reopens it. A folder whose frozen
  // config differs is an error naming both files, unless `force`, in which
  // case the new config replaces the old one (the old is kept as
  // config.yaml.<n>).
  //
  // A writer (`exclusive`, what `refinery run` opens) holds the folder's lock
  // (an flock on <dir>/lock) until the store is gone: a second writer on the
  // same folder is an error naming the holder's pid, never a second campaign
  // interleaved with the first. Readers (`refinery report`) take no lock.
  static base::Result<RunStore> open(const std::string& dir, const std::string& config_text, bool force,
                                     bool exclusive = true);

  base::Status record_response(const AttemptKey& key, const Response& response);
  std::optional<Response> response(const AttemptKey& key) const;

  // Appends the attempt (attempt.h's record) under a.key.
  base::Status record_attempt(const Attempt& a);
  std::optional<Attempt> attempt(const AttemptKey& key) const;  // the whole record
  // Every attempt in the order they finished, without the long texts
  // (Attempt::summary): what reports need.
  std::vector<Attempt> attempts() const;

  // The attempt's artifact folder, created on first use.
  base::Result<std::string> artifact_dir(const AttemptKey& key) const;
  const std::string& dir() const { return dir_; }
  // Lines that could not be read when the store was opened ("attempts.jsonl:12: ...").
  const std::vector<std::string>& warnings() const { return warnings_; }

  RunStore(RunStore&& other) noexcept;
  RunStore& operator=(RunStore&&) = delete;
  ~RunStore();

 private:
  struct Line {
    uint64_t offset = 0, length = 0;  // in its log, without the newline
  };
  struct Stored {
    Line line;
    Attempt summary;
  };

  RunStore() = default;
  base::Result<Line> append(const std::string& file, const nlohmann::json& line);
  std::optional<nlohmann::json> read(const std::string& file, const Line& line) const;
  // Calls `take` for each readable, first-of-its-key line of `file`.
  void load(const std::string& file, const std::function<void(const std::string&, Line, nlohmann::json)>& take);

  std::string dir_;
  int lock_fd_ = -1;  // held by a writer
  mutable std::mutex mutex_;
  std::map<std::string, Line> responses_;
  std::map<std::string, Stored> attempts_;
  std::vector<std::string> attempt_order_;
  std::vector<std::string> warnings_;
};

}  // namespace agent
