#include <doctest/doctest.h>

#include <filesystem>
#include <map>

#include "agent/campaign/run_store.h"
#include "agent/campaign/shard.h"
#include "base/fs.h"
#include "test_support.h"

namespace fs = std::filesystem;
using agent::chain_key;
using agent::shard_of;

namespace {

// Writes a shard folder holding one finished attempt per chain key given.
void write_shard(const std::string& dir, int index, int count, const std::string& config,
                 const std::vector<agent::AttemptKey>& keys) {
  auto store = agent::RunStore::open(dir, config, false);
  REQUIRE(store.ok());
  for (const auto& k : keys) {
    agent::Attempt a;
    a.key = k;
    a.status = agent::AttemptStatus::correct;
    a.evaluated = true;
    a.backend = "cpu";
    a.speedup = 1.5;
    REQUIRE(store->record_attempt(a).ok());
  }
  REQUIRE(base::write_file(dir + "/shard.json", nlohmann::json{{"index", index}, {"count", count}}.dump()).ok());
  REQUIRE(base::write_file(dir + "/selection.json", R"(["level1/19", "level1/20"])").ok());
}

// The keys of `problems` x samples 0..k-1 whose chains fall in shard i of n.
std::vector<agent::AttemptKey> keys_of(int i, int n, int samples) {
  std::vector<agent::AttemptKey> out;
  for (const std::string p : {"level1/19", "level1/20"})
    for (int k = 0; k < samples; ++k)
      if (shard_of(chain_key("m", "s", p, k), n) == i) out.push_back({"m", "s", p, k, 1});
  return out;
}

}  // namespace

TEST_SUITE("agent::shard") {
  TEST_CASE("--shard takes I/N with 0 <= I < N") {
    auto s = agent::parse_shard("2/4");
    REQUIRE(s.ok());
    CHECK(s->index == 2);
    CHECK(s->count == 4);
    CHECK(s->sharded());
    for (const char* bad : {"4/4", "-1/4", "1/0", "1", "a/b", "1/4x", "/4", "1/"})
      CHECK_FALSE(agent::parse_shard(bad).ok());
  }

  TEST_CASE("the split is a function of the chain's key and N alone, and covers every chain once") {
    CHECK(chain_key("gpt", "refine", "level1/19", 3) == "gpt/refine/level1/19/s3");
    CHECK(shard_of("gpt/refine/level1/19/s3", 1) == 0);
    // Fixed values: the split must never change under a resumed or requeued shard.
    CHECK(shard_of("gpt/refine/level1/19/s0", 4) == shard_of("gpt/refine/level1/19/s0", 4));
    std::map<int, int> sizes;
    for (int p = 1; p <= 100; ++p)
      for (int k = 0; k < 4; ++k) {
        const int s = shard_of(chain_key("m", "s", "level1/" + std::to_string(p), k), 4);
        REQUIRE(s >= 0);
        REQUIRE(s < 4);
        ++sizes[s];
      }
    // 400 chains over 4 shards: each near 100 (a hash, not a round robin).
    for (const auto& [shard, n] : sizes) CHECK_MESSAGE(n > 70, "shard " << shard << " has " << n);
    CHECK(sizes.size() == 4);
  }

  TEST_CASE("the shards read as one campaign; missing, doubled and foreign ones are named") {
    test_support::TempDir dir;
    const std::string config = "name: c\n";
    const int n = 3, samples = 8;
    for (int i = 0; i < n; ++i)
      write_shard(dir.path + "/shards/" + std::to_string(i), i, n, config, keys_of(i, n, samples));
    auto all = agent::read_shards(dir.path);
    REQUIRE(all.ok());
    CHECK(all->problems.empty());
    CHECK(all->count == 3);
    CHECK(all->attempts.size() == 16);
    CHECK(all->selection == std::vector<std::string>{"level1/19", "level1/20"});

    // Shard 1 copied (a requeued task given another folder), shard 2 gone, a
    // shard of another campaign, and an attempt in the wrong shard.
    fs::copy(dir.path + "/shards/1", dir.path + "/shards/1-again", fs::copy_options::recursive);
    fs::remove_all(dir.path + "/shards/2");
    write_shard(dir.path + "/shards/other", 0, n, "name: other\n", {});
    auto stray = keys_of(2, n, samples);
    REQUIRE(!stray.empty());
    {
      auto store = agent::RunStore::open(dir.path + "/shards/0", config, false);
      REQUIRE(store.ok());
      agent::Attempt a;
      a.key = stray[0];
      a.status = agent::AttemptStatus::correct;
      REQUIRE(store->record_attempt(a).ok());
    }
    auto damaged = agent::read_shards(dir.path);
    REQUIRE(damaged.ok());
    std::string said;
    for (const auto& p : damaged->problems) said += p + "\n";
    CHECK(said.find("/shards/1-again: duplicates shard 1") != std::string::npos);
    CHECK(said.find("shard 2 of 3 is missing") != std::string::npos);
    CHECK(said.find("/shards/other: foreign shard (another config), left out") != std::string::npos);
    CHECK(said.find("attempt " + stray[0].str() + " belongs to shard 2, left out") != std::string::npos);
    CHECK(damaged->attempts.size() == keys_of(0, n, samples).size() + keys_of(1, n, samples).size());
  }

  TEST_CASE("a folder with no shards is an error") {
    test_support::TempDir dir;
    CHECK_FALSE(agent::read_shards(dir.path).ok());
  }
}
