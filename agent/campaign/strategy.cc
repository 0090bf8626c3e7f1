#include "agent/campaign/strategy.h"

#include <algorithm>

#include "base/mix.h"

namespace agent {
namespace {

// The fastest correct turn, or nullptr.
const Attempt* best_of(const std::vector<Attempt>& done) {
  const Attempt* best = nullptr;
  for (const auto& t : done)
    if (t.correct() && (!best || t.correct_speedup() > best->correct_speedup())) best = &t;
  return best;
}

void carry(const Attempt& t, std::vector<Message>& into) {
  into.push_back({"assistant", t.response_text});
  into.push_back({"user", t.feedback});
}

// The base of the three: turns, and the early stop they share.
class Turns : public Strategy {
 public:
  explicit Turns(const StrategyConfig& c) : turns_(c.turns), patience_(c.stop_after_no_improvement) {}
  int turns() const override { return turns_; }

  NextTurn next(const std::vector<Attempt>& done) const override {
    NextTurn n;
    if (static_cast<int>(done.size()) >= turns_ || stale(done)) {
      n.stop = true;
      return n;
    }
    carry_into(done, n);
    return n;
  }

 protected:
  virtual void carry_into(const std::vector<Attempt>& done, NextTurn& n) const = 0;

 private:
  // patience_ turns in a row without a faster correct kernel than before them.
  bool stale(const std::vector<Attempt>& done) const {
    if (patience_ <= 0) return false;
    double best = -1;
    int since = 0;
    for (const auto& t : done) {
      if (t.correct() && t.correct_speedup() > best) {
        best = t.correct_speedup();
        since = 0;
      } else {
        ++since;
      }
    }
    return since >= patience_;
  }

  int turns_, patience_;
};

class SingleShot : public Turns {
 public:
  using Turns::Turns;

 protected:
  void carry_into(const std::vector<Attempt>&, NextTurn&) const override {}
};

class Refine : public Turns {
 public:
  Refine(const StrategyConfig& c) : Turns(c), last_only_(c.history == History::last) {}

 protected:
  void carry_into(const std::vector<Attempt>& done, NextTurn& n) const override {
    if (done.empty()) return;
    const size_t from = last_only_ ? done.size() - 1 : 0;
    for (size_t i = from; i < done.size(); ++i) carry(done[i], n.history);
    n.builds_on = done.back().key.turn;
  }

 private:
  bool last_only_;
};

class BestOfKRefine : public Turns {
 public:
  using Turns::Turns;

 protected:
  void carry_into(const std::vector<Attempt>& done, NextTurn& n) const override {
    if (done.empty()) return;
    const Attempt* best = best_of(done);
    const Attempt& from = best ? *best : done.back();
    carry(from, n.history);
    n.builds_on = from.key.turn;
  }
};

class Beam : public Search {
 public:
  explicit Beam(const StrategyConfig& c) : width_(c.width), branch_(c.branch), rounds_(c.turns) {}
  int rounds() const override { return rounds_; }

  std::vector<SearchNode> round(int r, const std::vector<Attempt>& done) const override {
    std::vector<SearchNode> nodes;
    if (r < 1 || r > rounds_) return nodes;
    const int per_round = width_ * branch_;
    if (r == 1) {
      for (int j = 0; j < per_round; ++j) nodes.push_back({j, 1, std::nullopt, {}, {}});
      return nodes;
    }
    // The parents: the best correct kernels so far, or, before any, the last round's first attempts.
    std::vector<const Attempt*> kept;
    for (const auto& a : done)
      if (a.correct() && a.speedup && a.key.turn < r) kept.push_back(&a);
    auto earlier = [](const Attempt* a, const Attempt* b) {
      return a->key.turn != b->key.turn ? a->key.turn < b->key.turn : a->key.sample < b->key.sample;
    };
    if (!kept.empty()) {
      std::sort(kept.begin(), kept.end(), [&](const Attempt* a, const Attempt* b) {
        return *a->speedup != *b->speedup ? *a->speedup > *b->speedup : earlier(a, b);
      });
    } else {
      for (const auto& a : done)
        if (a.key.turn == r - 1) kept.push_back(&a);
      std::sort(kept.begin(), kept.end(), earlier);
    }
    if (static_cast<int>(kept.size()) > width_) kept.resize(width_);
    for (size_t i = 0; i < kept.size(); ++i)
      for (int b = 0; b < branch_; ++b) {
        SearchNode n{(r - 1) * per_round + static_cast<int>(i) * branch_ + b,
                     r,
                     AttemptKey::Parent{kept[i]->key.sample, kept[i]->key.turn},
                     {},
                     {}};
        carry(*kept[i], n.history);
        nodes.push_back(std::move(n));
      }
    return nodes;
  }

 private:
  int width_, branch_, rounds_;
};

uint64_t fnv1a(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

class EvolveSearch : public Search {
 public:
  explicit EvolveSearch(const StrategyConfig& c) : e_(c.evolve), rounds_(c.turns), seed_(fnv1a(c.name)) {}
  int rounds() const override { return rounds_; }

  std::vector<SearchNode> round(int r, const std::vector<Attempt>& done) const override {
    std::vector<SearchNode> nodes;
    if (r < 1 || r > rounds_) return nodes;
    const int per_generation = e_.islands * e_.per_island;
    if (r == 1) {
      for (int j = 0; j < per_generation; ++j) nodes.push_back({j, 1, std::nullopt, {}, {}});
      return nodes;
    }
    const auto islands = populations(r, done);
    for (int i = 0; i < e_.islands; ++i) {
      const auto& island = islands[i];
      for (int j = 0; j < e_.per_island; ++j) {
        SearchNode n{(r - 1) * per_generation + i * e_.per_island + j, r, std::nullopt, {}, {}};
        if (!island.empty()) {
          const size_t pick = draw(island.size(), r, n.sample);
          const Attempt& parent = *island[pick];
          n.parent = AttemptKey::Parent{parent.key.sample, parent.key.turn};
          carry(parent, n.history);
          for (size_t k = 0; k < island.size() && static_cast<int>(n.inspirations.size()) < e_.inspirations; ++k)
            if (k != pick && island[k]->correct()) n.inspirations.push_back(*island[k]);
        }
        nodes.push_back(std::move(n));
      }
    }
    return nodes;
  }

 private:
  int island_of(const Attempt& a) const { return (a.key.sample % (e_.islands * e_.per_island)) / e_.per_island; }

  // Correct first, by speedup (ties to the earlier); then the others, newest first.
  static bool fitter(const Attempt* a, const Attempt* b) {
    if (a->correct() != b->correct()) return a->correct();
    const auto earlier = [](const Attempt* x, const Attempt* y) {
      return x->key.turn != y->key.turn ? x->key.turn < y->key.turn : x->key.sample < y->key.sample;
    };
    if (a->correct())
      return a->correct_speedup() != b->correct_speedup() ? a->correct_speedup() > b->correct_speedup() : earlier(a, b);
    return earlier(b, a);
  }

  // Each island's members before generation r, ranked, cut to the archive:
  // its own attempts, and the migrants it received after generations
  // migrate_every, 2 x migrate_every, ... before r.
  std::vector<std::vector<const Attempt*>> populations(int r, const std::vector<Attempt>& done) const {
    std::vector<std::vector<const Attempt*>> islands(e_.islands);
    auto rank = [&](std::vector<const Attempt*>& island) {
      std::sort(island.begin(), island.end(), fitter);
      if (static_cast<int>(island.size()) > e_.archive) island.resize(e_.archive);
    };
    for (int g = 1; g < r; ++g) {
      for (const auto& a : done)
        if (a.key.turn == g) islands[island_of(a)].push_back(&a);
      for (auto& island : islands) rank(island);
      if (e_.islands < 2 || e_.migrate_every <= 0 || g % e_.migrate_every != 0) continue;
      std::vector<const Attempt*> best(e_.islands, nullptr);
      for (int i = 0; i < e_.islands; ++i)
        if (!islands[i].empty() && islands[i].front()->correct()) best[i] = islands[i].front();
      for (int i = 0; i < e_.islands; ++i) {
        const Attempt* migrant = best[(i + e_.islands - 1) % e_.islands];
        auto& to = islands[i];
        if (migrant && std::find(to.begin(), to.end(), migrant) == to.end()) to.push_back(migrant);
        rank(to);
      }
    }
    return islands;
  }

  // An index below n, drawn with weight 1 / (index + 1).
  size_t draw(size_t n, int r, int sample) const {
    double total = 0;
    for (size_t k = 0; k < n; ++k) total += 1.0 / static_cast<double>(k + 1);
    const uint64_t bits =
        base::mix64(seed_ ^ base::mix64(static_cast<uint64_t>(r) << 32 | static_cast<uint32_t>(sample)));
    double x = base::unit_interval(bits) * total;
    for (size_t k = 0; k < n; ++k) {
      x -= 1.0 / static_cast<double>(k + 1);
      if (x < 0) return k;
    }
    return n - 1;
  }

  Evolve e_;
  int rounds_;
  uint64_t seed_;
};

}  // namespace

std::unique_ptr<Search> make_search(const StrategyConfig& c) {
  switch (c.kind) {
    case StrategyKind::single_shot:
    case StrategyKind::refine:
    case StrategyKind::best_of_k_refine:
      return nullptr;
    case StrategyKind::beam:
      return std::make_unique<Beam>(c);
    case StrategyKind::evolve:
      return std::make_unique<EvolveSearch>(c);
  }
  return nullptr;
}

std::unique_ptr<Strategy> make_strategy(const StrategyConfig& c) {
  switch (c.kind) {
    case StrategyKind::single_shot:
      return std::make_unique<SingleShot>(c);
    case StrategyKind::refine:
      return std::make_unique<Refine>(c);
    case StrategyKind::best_of_k_refine:
      return std::make_unique<BestOfKRefine>(c);
    case StrategyKind::beam:
    case StrategyKind::evolve:
      return nullptr;  // a search, not a chain: make_search
  }
  return nullptr;  // not a StrategyKind: no config decodes to one
}

}  // namespace agent
