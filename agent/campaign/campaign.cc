#include "agent/campaign/campaign.h"

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "agent/campaign/extract.h"
#include "agent/campaign/ledger.h"
#include "base/fs.h"

namespace agent {
namespace {

// A fixed set of threads running posted tasks in order.
class Pool {
 public:
  explicit Pool(int threads) {
    for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { loop(); });
  }
  ~Pool() { join(); }

  void post(std::function<void()> task) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    cv_.notify_one();
  }

  // Runs what is queued, then ends the threads.
  void join() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

 private:
  void loop() {
    while (true) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [this] { return closed_ || !tasks_.empty(); });
        if (tasks_.empty()) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  bool closed_ = false;
  std::vector<std::thread> threads_;
};

struct Chain {
  const ModelConfig* model;
  const StrategyConfig* strategy;
  const Strategy* policy;  // what the next turn carries, and when the chain stops (linear strategies)
  const eval::Problem* problem;
  int sample;
  const Search* search = nullptr;  // a branching strategy's: the unit is the whole search, not a chain
};

struct SearchState;

// A chain being run: its prompts, its finished turns, and where it stands.
// Or one node of a search: its key's sample, turn and parent, and what its
// prompt carries.
struct ChainState {
  Chain c;
  std::string system, first;
  std::vector<Attempt> done;                 // finished turns, in order, with their texts (what a strategy carries)
  double best = -1;                          // the fastest correct speedup so far, for the progress line
  int turn = 0;                              // the turn being run
  std::shared_ptr<SearchState> search;       // a node's search; null in a chain
  bool in_flight = false;                    // its request is claimed in the Ledger until recorded or ended
  std::optional<AttemptKey::Parent> parent;  // a node's
  std::vector<Message> history;              // a node's: after the first prompt
};

// A branching search being run (strategy.h's Search): its rounds one after
// another, the nodes of a round in flight together.
struct SearchState {
  Chain c;
  std::string system, first;
  std::mutex mutex;
  std::vector<Attempt> done;  // every finished node, with its texts
  int round = 0;              // the round in flight
  size_t pending = 0;         // its nodes not finished
  bool broken = false;        // a node of this round ended unrecorded (a model error, a stop)
  double best = -1;           // the fastest counted speedup so far, for the progress line
};

// Admits chains, asks the models and hands each answer to an evaluation slot
// (never called a runner: that word is the sandboxed process running model code).
class Scheduler {
 public:
  explicit Scheduler(CampaignDeps& deps) : d_(deps) {}

  base::Status run() {
    // Problems outermost and models innermost, so that the chains admitted
    // together ask every model, not one model's queue at a time.
    for (const auto& s : d_.config.strategies) {
      policies_.emplace(s.name, make_strategy(s));
      searches_.emplace(s.name, make_search(s));
    }
    // A search is sharded as its sample 0's chain would be: all of it in one shard.
    for (const auto& p : d_.problems)
      for (const auto& s : d_.config.strategies)
        for (int k = 0; k < (s.branching() ? 1 : s.samples); ++k)
          for (const auto& m : d_.config.models)
            if (shard_of(chain_key(m.name, s.name, p.id, k), d_.shard.count) == d_.shard.index)
              chains_.push_back({&m, &s, policies_.at(s.name).get(), &p, k, searches_.at(s.name).get()});
    for (const auto& c : chains_) progress_.total += c.search ? c.strategy->attempts_per_problem() : c.strategy->turns;
    progress_.chains = static_cast<int>(chains_.size());
    for (const auto& a : d_.store.attempts()) spend(a);  // what earlier runs spent counts against the budgets

    int in_flight = d_.max_in_flight;
    for (const auto& m : d_.config.models) {
      asks_.emplace(m.name, std::make_unique<Pool>(m.concurrency));
      if (d_.max_in_flight <= 0) in_flight += m.concurrency;
    }
    if (d_.max_in_flight <= 0) in_flight += d_.eval_threads;
    evals_ = std::make_unique<Pool>(d_.eval_threads);

    for (int i = 0; i < in_flight; ++i) admit();
    {
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, [this] { return active_ == 0; });
    }
    for (auto& [name, pool] : asks_) pool->join();
    evals_->join();
    return failure_;
  }

 private:
  bool stopped() const { return d_.stop && d_.stop->load(); }

  void fail(const base::Status& s) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_.ok()) failure_ = s;
    if (d_.stop) d_.stop->store(true);
  }

  // Admits chains until one is queued on a pool (or none is left). A chain
  // whose turns are all in the store ends here, and the next one comes in.
  void admit() {
    while (true) {
      size_t i;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (next_ >= chains_.size() || stopped() || !failure_.ok()) return;
        i = next_++;
        ++active_;
      }
      auto state = std::make_shared<ChainState>();
      state->c = chains_[i];
      auto prepared = prepare(*state);
      if (!prepared) fail(prepared);
      if (prepared && state->c.search) {
        auto search = std::make_shared<SearchState>();
        search->c = state->c;
        search->system = state->system;
        search->first = state->first;
        if (next_round(search)) return;
      } else if (prepared && advance(state)) {
        return;
      }
      release();
    }
  }

  void release() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (--active_ == 0) done_.notify_all();
  }

  // A chain queued on a pool has ended (its last turn, early stop, a model
  // failure, or stop): its place goes to the next.
  void finish() {
    admit();
    release();
  }

  base::Status prepare(ChainState& st) {
    const auto& c = st.c;
    Target target = d_.target;
    if (!c.strategy->hardware) target.hardware.clear();
    // The strategy's precision, as the problem's spec allows it (eval::precision_for).
    eval::EvalSettings settings = d_.eval_settings;
    settings.precision = c.strategy->precision.value_or(settings.precision);
    target.precision = eval::precision_for(*c.problem, settings.precision);
    const eval::Tolerance tolerance = eval::effective_tolerance(*c.problem, settings);
    if (c.strategy->prompt == PromptStyle::kernelbench) {
      const KernelLanguage kernels = c.strategy->kernels.value_or(default_kernels(d_.target.backend));
      TRY_ASSIGN(st.first, kernelbench_first_turn(d_.templates, *c.problem, eval::to_string(settings.size), target,
                                                  tolerance, kernels, c.strategy->shots));
      TRY_ASSIGN(st.system, d_.templates.render("system", {{"language", kernelbench_language(kernels)}}));
      return {};
    }
    TRY_ASSIGN(std::string reference, base::read_file(c.problem->reference_path));
    TRY_ASSIGN(st.first, d_.templates.render("first_turn", first_turn_values(*c.problem, eval::to_string(settings.size),
                                                                             target, tolerance, reference)));
    TRY_ASSIGN(st.system,
               d_.templates.render("system", {{"language", eval::language(d_.target.language).prompt_name}}));
    return {};
  }

  AttemptKey key_of(const ChainState& st) const {
    return {st.c.model->name, st.c.strategy->name, st.c.problem->id, st.c.sample, st.turn, st.parent};
  }

  // Posts a search's next round: its recorded nodes are taken from the store,
  // the others asked (or evaluated, when their response is stored). A round
  // recorded whole is passed over. False when the search is over.
  bool next_round(const std::shared_ptr<SearchState>& s) {
    while (!stopped()) {
      std::vector<SearchNode> nodes;
      {
        std::lock_guard<std::mutex> lock(s->mutex);
        nodes = s->c.search->round(s->round + 1, s->done);
        if (nodes.empty()) return false;
        ++s->round;
      }
      std::vector<std::shared_ptr<ChainState>> asked;
      for (auto& n : nodes) {
        auto st = std::make_shared<ChainState>();
        st->c = s->c;
        st->c.sample = n.sample;
        st->turn = n.round;
        st->parent = n.parent;
        st->history = std::move(n.history);
        st->system = s->system;
        st->first = s->first;
        st->search = s;
        if (auto done = d_.store.attempt(key_of(*st))) {
          take_node(*s, *done);
          continue;
        }
        if (!n.inspirations.empty() && !st->history.empty()) {
          auto shown = render_inspirations(
              d_.templates, eval::language(s->c.strategy->candidate_language(d_.target.backend)), n.inspirations);
          if (!shown) {
            fail(shown.error());
            return false;
          }
          if (!shown->empty()) st->history.back().content += "\n\n" + *shown;
        }
        asked.push_back(std::move(st));
      }
      if (asked.empty()) continue;
      // A node whose response is stored costs nothing more. The others are
      // asked as far as the budgets have room, in the round's order (an
      // attempts budget ends within a round, never past it); none once a
      // budget is spent or stop_at_sol reached, which ends the search.
      std::vector<std::shared_ptr<ChainState>> fresh;
      for (const auto& st : asked)
        if (!d_.store.response(key_of(*st))) fresh.push_back(st);
      if (!fresh.empty()) {
        double best_sol = 0;
        {
          std::lock_guard<std::mutex> lock(s->mutex);
          best_sol = best_sol_of(s->done);
        }
        const AttemptKey first = key_of(*fresh.front());
        const int granted = sol_reached(s->c, first, best_sol) ? 0 : claim(s->c, first, static_cast<int>(fresh.size()));
        for (size_t i = 0; i < fresh.size(); ++i) fresh[i]->in_flight = static_cast<int>(i) < granted;
        std::erase_if(asked, [&](const auto& st) {
          return !st->in_flight && std::find(fresh.begin(), fresh.end(), st) != fresh.end();
        });
        if (asked.empty()) return false;
      }
      {
        std::lock_guard<std::mutex> lock(s->mutex);
        s->pending = asked.size();
        s->broken = false;
      }
      for (const auto& st : asked) dispatch(st, st->history);
      return true;
    }
    return false;
  }

  // A finished node joins its search, and the progress.
  void take_node(SearchState& s, const Attempt& a) {
    const bool counts = this->counts(a);
    bool became_fast = false;
    {
      std::lock_guard<std::mutex> lock(s.mutex);
      s.done.push_back(a);
      became_fast = s.best <= 1 && counts && a.correct_speedup() > 1;
      if (counts) s.best = std::max(s.best, a.correct_speedup());
    }
    report(a, became_fast);
  }

  // A node has ended: recorded (`a`) or not. The last of its round starts the next.
  void node_done(const std::shared_ptr<ChainState>& st, const Attempt* a) {
    auto s = st->search;
    if (a) take_node(*s, *a);
    bool last = false, broken = false;
    {
      std::lock_guard<std::mutex> lock(s->mutex);
      if (!a) s->broken = true;
      last = --s->pending == 0;
      broken = s->broken;
    }
    if (!last) return;
    // A round with a node missing is not complete: the search resumes there on the next run.
    if (broken || !next_round(s)) finish();
  }

  // A chain or a node has ended without going on.
  void end(const std::shared_ptr<ChainState>& st) {
    unclaim(*st);
    if (st->search) return node_done(st, nullptr);
    finish();
  }

  // A recorded attempt counts against the budgets; the request it answered
  // (`st`'s, if claimed) no longer counts in flight.
  void spend(const Attempt& a, ChainState* st = nullptr) {
    ledger_.spend(a, st && std::exchange(st->in_flight, false));
  }

  void unclaim(ChainState& st) {
    if (std::exchange(st.in_flight, false)) ledger_.unclaim(st.c.model->name, st.c.strategy->name, st.c.problem->id);
  }

  // Claims up to `wanted` requests of the chain's (search's) budgets
  // (ledger.h), each counted in flight until its attempt is recorded or its
  // chain ends. With none granted, which budget ended the chain is recorded
  // in RUN/budget.jsonl, once per run.
  int claim(const Chain& c, const AttemptKey& key, int wanted) {
    const Ledger::Claim got = ledger_.claim(c.model->name, *c.strategy, c.problem->id, wanted);
    if (!got.granted) note_end(c, key, got.ended_by);
    return got.granted;
  }

  // The best speed-of-light fraction among the attempts whose speedup counts (0: none).
  double best_sol_of(const std::vector<Attempt>& done) const {
    double best = 0;
    for (const auto& a : done)
      if (counts(a) && a.sol_fraction) best = std::max(best, *a.sol_fraction);
    return best;
  }

  // Whether the chain's (the search's) best counted kernel, at `best_sol` of
  // the speed-of-light bound, has reached the strategy's stop_at_sol; noted
  // in budget.jsonl as "stop_at_sol" when it has.
  bool sol_reached(const Chain& c, const AttemptKey& key, double best_sol) {
    if (!c.strategy->stop_at_sol || best_sol < *c.strategy->stop_at_sol) return false;
    note_end(c, key, "stop_at_sol");
    return true;
  }

  // RUN/budget.jsonl's line for a chain a budget (or stop_at_sol) ended, once per run.
  void note_end(const Chain& c, const AttemptKey& key, const std::string& which) {
    {
      std::lock_guard<std::mutex> lock(noted_mutex_);
      if (!budget_noted_.insert(chain_key(c.model->name, c.strategy->name, c.problem->id, c.sample)).second) return;
    }
    const nlohmann::json line = {{"model", c.model->name},   {"strategy", c.strategy->name},
                                 {"problem", c.problem->id}, {"sample", c.sample},
                                 {"next", key.str()},        {"budget", which}};
    if (auto s = base::append_file(d_.store.dir() + "/budget.jsonl", line.dump() + "\n"); !s) fail(s);
  }

  bool counts(const Attempt& a) const {
    return a.correct() && (d_.config.count_unstable || !a.unstable) && a.quarantine.empty() && !a.library_only;
  }

  // Moves a chain to its next turn: replays finished attempts from the store,
  // then queues the first unfinished one for its model (or, when its response
  // is already stored, for evaluation). False when the chain has ended.
  bool advance(const std::shared_ptr<ChainState>& st) {
    while (true) {
      NextTurn next = st->c.policy->next(st->done);
      if (next.stop || stopped()) return false;
      st->turn = static_cast<int>(st->done.size()) + 1;
      AttemptKey key = key_of(*st);
      if (auto done = d_.store.attempt(key)) {
        absorb(*st, *done);
        continue;
      }
      if (!may_ask(*st)) return false;
      return dispatch(st, next.history);
    }
  }

  // Queues a turn for its model, or, when its response is stored, for evaluation.
  bool dispatch(const std::shared_ptr<ChainState>& st, const std::vector<Message>& history) {
    const AttemptKey key = key_of(*st);
    ChatRequest request{st->system, {{"user", st->first}}};
    request.messages.insert(request.messages.end(), history.begin(), history.end());
    if (auto s = write_prompt(key, request); !s) {
      fail(s);
      if (st->search) node_done(st, nullptr);
      return false;
    }
    if (auto stored = d_.store.response(key)) {
      // Received before an interruption: never asked again.
      evals_->post([this, st, response = std::move(*stored)] { evaluate(st, response); });
    } else {
      asks_.at(st->c.model->name)->post([this, st, request = std::move(request)] { ask(st, request); });
    }
    return true;
  }

  // Whether a chain's next request may be made: a response already received
  // costs nothing more; otherwise the chain's best kernel must be short of
  // stop_at_sol and every budget must have room.
  // A request it may make is claimed (claim) and counts in flight.
  bool may_ask(ChainState& st) {
    const AttemptKey key = key_of(st);
    if (d_.store.response(key)) return true;
    if (sol_reached(st.c, key, best_sol_of(st.done))) return false;
    st.in_flight = claim(st.c, key, 1) == 1;
    return st.in_flight;
  }

  base::Status write_prompt(const AttemptKey& key, const ChatRequest& request) {
    TRY_ASSIGN(std::string dir, d_.store.artifact_dir(key));
    std::string text = "### system\n\n" + request.system + "\n\n";
    for (const auto& m : request.messages) text += "### " + m.role + "\n\n" + m.content + "\n\n";
    return base::write_file(dir + "/prompt.md", text);
  }

  // In a model's pool: gets the response and records it the moment it arrives.
  void ask(const std::shared_ptr<ChainState>& st, const ChatRequest& request) {
    if (stopped()) return end(st);
    const auto& model = *st->c.model;
    AttemptKey key = key_of(*st);
    auto completion = d_.ask(model, key, request);
    if (!completion) {
      // Nothing is recorded: this chain resumes here when the run is resumed.
      // A request cut short by Ctrl-C needs no message of its own.
      if (completion.error().kind == base::ErrorKind::interrupted) return end(st);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (d_.on_model_error) d_.on_model_error(key, completion.error().message);
      }
      return end(st);
    }
    Response response = response_of(*completion, model.price);
    if (auto s = d_.store.record_response(key, response); !s) {
      fail(s);
      return end(st);
    }
    evals_->post([this, st, response = std::move(response)] { evaluate(st, response); });
  }

  // In the evaluation pool: extracts, compiles and runs the candidate, records
  // the attempt, and moves the chain on.
  void evaluate(const std::shared_ptr<ChainState>& st, const Response& response) {
    if (stopped()) return end(st);
    auto record = attempt(*st, response);
    if (!record) {
      if (record.error().kind == base::ErrorKind::interrupted) return end(st);
      fail(record.error());
      return end(st);
    }
    if (st->search) return node_done(st, &*record);
    absorb(*st, *record);
    if (!advance(st)) finish();
  }

  // Whether the run's own stop ended this evaluation: only a crash can be
  // that (a verdict the judge finished stands, stopped or not). A worker or
  // runner ended by SIGINT, SIGTERM or SIGHUP waits (up to 2 s) for the signal
  // that reached refinery at the same moment; one that never comes was the
  // candidate's own doing, and is its crash.
  bool cut_short(const eval::Outcome& outcome) const {
    if (outcome.status != eval::Status::crashed) return false;
    if (stopped()) return true;
    const int sig = outcome.signal;
    if (sig != SIGINT && sig != SIGTERM && sig != SIGHUP) return false;
    for (int i = 0; i < 40 && !stopped(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return stopped();
  }

  base::Result<Attempt> attempt(ChainState& st, const Response& response) {
    AttemptKey key = key_of(st);
    TRY_ASSIGN(std::string dir, d_.store.artifact_dir(key));
    Attempt record;
    record.key = key;
    record.response_text = response.text;
    record.cost_usd = response.cost_usd;
    record.usage = response.usage;
    TRY(base::write_file(dir + "/response.md", response.text));
    const eval::Language& language = eval::language(st.c.strategy->candidate_language(d_.target.backend));
    Extraction e = extract_code(response.text, language);
    // Cut at the token limit: flagged on the attempt; with no complete block
    // there is nothing to compile, and the model is told why.
    const bool truncated = response.truncated();
    record.truncated = truncated;
    if (truncated && (!e.code || e.unterminated)) {
      const std::string where = e.code ? "inside its code block" : "before any code block";
      record.status = AttemptStatus::truncated;
      record.message = "the response was cut at the output token limit " + where;
      TRY_ASSIGN(record.feedback, d_.templates.render("feedback_truncated", {{"where", where}}));
    } else if (!e.code) {
      record.status = AttemptStatus::no_code;
      record.message = e.note;
      TRY_ASSIGN(record.feedback, d_.templates.render("feedback_no_code", {{"reason", e.note}}));
    } else {
      TRY(base::write_file(dir + "/" + language.candidate_file(), *e.code));
      const EvalAs as{language.id, st.c.strategy->precision.value_or(d_.eval_settings.precision)};
      TRY_ASSIGN(eval::Outcome outcome, d_.evaluate(*st.c.problem, *e.code, as));
      // An evaluation the run's own interruption cut short (Ctrl-C, or Slurm
      // preempting the task: both signal the worker too) says nothing about
      // the candidate: not recorded, and evaluated again on resume.
      if (cut_short(outcome)) return base::Error{"evaluation interrupted", base::ErrorKind::interrupted};
      TRY(base::write_file(dir + "/result.json", eval::summary_json(outcome).dump(2)));
      if (outcome.compile) TRY(base::write_file(dir + "/compile.log", outcome.compile->log));
      record.take(outcome);
      record.backend = eval::to_string(d_.target.backend);
      TRY_ASSIGN(std::string feedback, render_feedback(d_.templates, outcome, st.c.strategy->feedback, key.turn));
      if (truncated) {
        TRY_ASSIGN(std::string note, d_.templates.render("feedback_truncated_note", {}));
        feedback = note + "\n" + feedback;
      }
      record.feedback = feedback;
    }
    TRY(d_.store.record_attempt(record));
    spend(record, &st);
    return record;
  }

  // Takes a finished attempt into the chain's turns and the progress.
  void absorb(ChainState& st, const Attempt& a) {
    st.done.push_back(a);
    const double speedup = a.correct_speedup();
    // The progress line's fast_1 counts as the report does: an unstable timing only if the config says so.
    const bool counts = this->counts(a);
    report(a, st.best <= 1 && counts && speedup > 1);
    if (counts) st.best = std::max(st.best, speedup);
  }

  void report(const Attempt& a, bool became_fast) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++progress_.done;
    progress_.fast_1_chains += became_fast;
    progress_.correct += a.correct();
    progress_.max_turn = std::max(progress_.max_turn, a.key.turn);
    progress_.tokens += a.usage.input_tokens + a.usage.output_tokens;
    progress_.cost_usd += a.cost_usd;
    if (d_.on_progress) d_.on_progress(progress_);
  }

  CampaignDeps& d_;
  std::map<std::string, std::unique_ptr<Strategy>> policies_;  // one per strategy, by name
  std::map<std::string, std::unique_ptr<Search>> searches_;    // one per branching strategy, by name
  Ledger ledger_{d_.config.budget};
  std::mutex noted_mutex_;
  std::set<std::string> budget_noted_;  // chains whose budget end is in budget.jsonl this run
  std::vector<Chain> chains_;
  std::map<std::string, std::unique_ptr<Pool>> asks_;  // one per model
  std::unique_ptr<Pool> evals_;
  std::mutex mutex_;
  std::condition_variable done_;
  size_t next_ = 0;  // the next chain to admit
  int active_ = 0;   // chains admitted and not finished
  Progress progress_;
  base::Status failure_;
};

}  // namespace

base::Status run_campaign(CampaignDeps& deps) {
  return Scheduler(deps).run();
}

int default_eval_threads(eval::Backend backend, int devices) {
  devices = std::max(1, devices);
  if (backend == eval::Backend::cpu) return devices;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())) + devices;
}

}  // namespace agent
