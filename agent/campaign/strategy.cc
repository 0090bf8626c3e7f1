#include "agent/campaign/strategy.h"

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

}  // namespace

std::unique_ptr<Strategy> make_strategy(const StrategyConfig& c) {
  switch (c.kind) {
    case StrategyKind::single_shot:
      return std::make_unique<SingleShot>(c);
    case StrategyKind::refine:
      return std::make_unique<Refine>(c);
    case StrategyKind::best_of_k_refine:
      return std::make_unique<BestOfKRefine>(c);
  }
  return nullptr;  // not a StrategyKind: no config decodes to one
}

}  // namespace agent
