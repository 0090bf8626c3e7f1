// Splitting a campaign over processes (a Slurm job array, say): shard I of N
// runs the chains (model, strategy, problem, sample) whose key hashes to I,
// into a run folder of its own. The split depends on nothing but the chain's
// key and N, so a resumed or requeued shard runs the same chains, and the
// shards together run every chain exactly once.
//
// A sharded run folder:
//   RUN/shards/<I>/        a run folder like any other (config.yaml, logs,
//                          attempts/), plus shard.json: {"index": I, "count": N}
// `refinery report RUN` reads the shards as one campaign and says which are
// missing, which appear twice, and which do not belong (another config, another
// N, or an attempt whose chain hashes to another shard).
#pragma once

#include <string>
#include <vector>

#include "agent/campaign/attempt.h"
#include "base/result.h"

namespace agent {

struct ShardSpec {
  int index = 0;
  int count = 1;
  bool sharded() const { return count > 1; }
};

// "I/N" with 0 <= I < N <= 100000.
base::Result<ShardSpec> parse_shard(const std::string& text);

// The chain's key without its turn: "model/strategy/problem/sK".
std::string chain_key(const std::string& model, const std::string& strategy, const std::string& problem, int sample);

// Which of `count` shards runs the chain: the first 8 bytes of the key's SHA-256, mod count.
int shard_of(const std::string& chain_key, int count);

// What a merged report needs to know about a sharded run folder.
struct ShardedRun {
  std::vector<std::string> dirs;       // RUN/shards/<I> that belong, by index
  std::vector<Attempt> attempts;       // every attempt of those shards, once
  std::string config_text;             // the shards' common config
  std::vector<std::string> selection;  // the shards' common problem selection
  int count = 0;                       // N
  std::vector<std::string> problems;   // missing, duplicated or foreign shards and attempts, one line each
};

// Reads RUN/shards/*/ (an Error when there is none, or none readable).
base::Result<ShardedRun> read_shards(const std::string& run_dir);

}  // namespace agent
