#include "agent/campaign/shard.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "agent/campaign/run_store.h"
#include "base/fs.h"
#include "base/sha256.h"

namespace agent {
namespace fs = std::filesystem;

base::Result<ShardSpec> parse_shard(const std::string& text) {
  const size_t slash = text.find('/');
  auto bad = [&] { return base::usage_error("--shard must be I/N with 0 <= I < N <= 100000, not '" + text + "'"); };
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return bad();
  ShardSpec s;
  try {
    size_t used = 0;
    s.index = std::stoi(text.substr(0, slash), &used);
    if (used != slash) return bad();
    s.count = std::stoi(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) return bad();
  } catch (...) {
    return bad();
  }
  if (s.count < 1 || s.count > 100000 || s.index < 0 || s.index >= s.count) return bad();
  return s;
}

std::string chain_key(const std::string& model, const std::string& strategy, const std::string& problem, int sample) {
  return model + "/" + strategy + "/" + problem + "/s" + std::to_string(sample);
}

int shard_of(const std::string& key, int count) {
  if (count <= 1) return 0;
  const std::string hex = base::sha256_hex(key).substr(0, 16);
  return static_cast<int>(std::stoull(hex, nullptr, 16) % static_cast<uint64_t>(count));
}

base::Result<ShardedRun> read_shards(const std::string& run_dir) {
  const fs::path root = fs::path(run_dir) / "shards";
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return base::Error{run_dir + " has no shards/ folder"};
  ShardedRun out;
  std::map<int, std::vector<std::string>> by_index;
  struct Found {
    std::string dir, config, selection;
    int index = -1, count = 0;
  };
  std::vector<Found> found;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    if (!e.is_directory()) continue;
    Found f;
    f.dir = e.path().string();
    auto meta = base::read_file(f.dir + "/shard.json");
    auto config = base::read_file(f.dir + "/config.yaml");
    auto selection = base::read_file(f.dir + "/selection.json");
    if (!meta || !config || !selection) {
      out.problems.push_back(f.dir + ": not a shard (no shard.json, config.yaml or selection.json)");
      continue;
    }
    auto j = nlohmann::json::parse(*meta, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.value("index", nlohmann::json()).is_number_integer() ||
        !j.value("count", nlohmann::json()).is_number_integer()) {
      out.problems.push_back(f.dir + "/shard.json: not {\"index\": I, \"count\": N}");
      continue;
    }
    f.index = j["index"].get<int>();
    f.count = j["count"].get<int>();
    f.config = *config;
    f.selection = *selection;
    found.push_back(std::move(f));
  }
  if (found.empty()) return base::Error{root.string() + ": no readable shard"};
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.dir < b.dir; });
  // The campaign is the one most shards agree on (config and N); the others are foreign.
  std::map<std::pair<std::string, int>, int> votes;
  for (const auto& f : found) ++votes[{f.config, f.count}];
  auto best = std::max_element(votes.begin(), votes.end(), [](auto& a, auto& b) { return a.second < b.second; });
  out.config_text = best->first.first;
  out.count = best->first.second;
  std::set<std::string> seen_keys;
  for (const auto& f : found) {
    if (f.config != out.config_text || f.count != out.count) {
      out.problems.push_back(f.dir + ": foreign shard (" +
                             (f.count != out.count
                                  ? "of " + std::to_string(f.count) + " shards, not " + std::to_string(out.count)
                                  : std::string("another config")) +
                             "), left out");
      continue;
    }
    if (f.index < 0 || f.index >= out.count) {
      out.problems.push_back(f.dir + ": shard index " + std::to_string(f.index) + " is outside 0.." +
                             std::to_string(out.count - 1) + ", left out");
      continue;
    }
    by_index[f.index].push_back(f.dir);
    if (by_index[f.index].size() > 1) {
      out.problems.push_back(f.dir + ": duplicates shard " + std::to_string(f.index) + " (" + by_index[f.index][0] +
                             "), left out");
      continue;
    }
    if (out.selection.empty()) {
      auto sel = nlohmann::json::parse(f.selection, nullptr, false);
      if (sel.is_array())
        for (const auto& p : sel)
          if (p.is_string()) out.selection.push_back(p.get<std::string>());
    }
    auto store = RunStore::open(f.dir, f.config, false, /*exclusive=*/false);
    if (!store) {
      out.problems.push_back(f.dir + ": " + store.error().message);
      continue;
    }
    out.dirs.push_back(f.dir);
    for (auto& a : store->attempts()) {
      const std::string chain = chain_key(a.key.model, a.key.strategy, a.key.problem, a.key.sample);
      if (shard_of(chain, out.count) != f.index) {
        out.problems.push_back(f.dir + ": attempt " + a.key.str() + " belongs to shard " +
                               std::to_string(shard_of(chain, out.count)) + ", left out");
        continue;
      }
      if (!seen_keys.insert(a.key.str()).second) continue;
      out.attempts.push_back(std::move(a));
    }
  }
  for (int i = 0; i < out.count; ++i)
    if (!by_index.count(i))
      out.problems.push_back("shard " + std::to_string(i) + " of " + std::to_string(out.count) + " is missing");
  return out;
}

}  // namespace agent
