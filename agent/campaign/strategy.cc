#include "agent/campaign/strategy.h"

#include <algorithm>

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
      for (int j = 0; j < per_round; ++j) nodes.push_back({j, 1, std::nullopt, {}});
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
                     {}};
        carry(*kept[i], n.history);
        nodes.push_back(std::move(n));
      }
    return nodes;
  }

 private:
  int width_, branch_, rounds_;
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
      return nullptr;  // a search, not a chain: make_search
  }
  return nullptr;  // not a StrategyKind: no config decodes to one
}

}  // namespace agent
