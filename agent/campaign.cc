#include "agent/campaign.h"

#include <filesystem>
#include <mutex>
#include <thread>

#include "agent/extract.h"
#include "base/fs.h"

namespace agent {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Chain {
  const ModelConfig* model;
  const StrategyConfig* strategy;
  const eval::Problem* problem;
  int sample;
};

class Runner {
 public:
  explicit Runner(CampaignDeps& deps) : d_(deps) {}

  base::Status run() {
    for (const auto& m : d_.config.models)
      for (const auto& s : d_.config.strategies)
        for (const auto& p : d_.problems)
          for (int k = 0; k < s.samples; ++k) chains_.push_back({&m, &s, &p, k});
    for (const auto& c : chains_) progress_.total += c.strategy->turns;
    progress_.chains = static_cast<int>(chains_.size());
    std::vector<std::thread> pool;
    for (int i = 0; i < std::max(1, d_.threads); ++i) pool.emplace_back([this] { work(); });
    for (auto& t : pool) t.join();
    return failure_;
  }

 private:
  void work() {
    while (true) {
      size_t i = next_.fetch_add(1);
      if (i >= chains_.size() || stopped()) return;
      auto s = run_chain(chains_[i]);
      if (!s) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (failure_.ok()) failure_ = s;
        if (d_.stop) d_.stop->store(true);
        return;
      }
    }
  }

  bool stopped() const { return d_.stop && d_.stop->load(); }

  base::Status run_chain(const Chain& c) {
    auto reference = base::read_file(c.problem->reference_path);
    if (!reference) return reference.error();
    auto first = d_.templates.render(
        "first_turn", first_turn_values(*c.problem, d_.eval_settings.size, d_.target,
                                        eval::effective_tolerance(*c.problem, d_.eval_settings), *reference));
    if (!first) return first.error();
    auto system = d_.templates.render("system", {{"language", d_.target.backend == "cuda" ? "CUDA C++" : "C++"}});
    if (!system) return system.error();

    std::vector<Message> history;  // assistant responses and user feedback, in turn order
    double best = -1;
    int since_improvement = 0;
    for (int turn = 1; turn <= c.strategy->turns; ++turn) {
      if (stopped()) return {};
      AttemptKey key{c.model->name, c.strategy->name, c.problem->id, c.sample, turn};
      json record;
      if (auto done = d_.store.attempt(key)) {
        record = *done;
      } else {
        ChatRequest request{*system, {{"user", *first}}};
        size_t from = c.strategy->history == "last" && history.size() > 2 ? history.size() - 2 : 0;
        request.messages.insert(request.messages.end(), history.begin() + from, history.end());
        auto attempted = attempt(c, key, request);
        if (!attempted) return attempted.error();
        if (!*attempted) return {};  // the model failed: this chain resumes here next run
        record = **attempted;
      }
      history.push_back({"assistant", record.value("response_text", "")});
      history.push_back({"user", record.value("feedback", "")});
      report(record, turn, best <= 1 && record.value("status", "") == "correct" && record.value("speedup", 0.0) > 1);
      if (record.value("status", "") == "correct" && record.value("speedup", 0.0) > best) {
        best = record["speedup"].get<double>();
        since_improvement = 0;
      } else if (++since_improvement >= c.strategy->stop_after_no_improvement &&
                 c.strategy->stop_after_no_improvement > 0) {
        break;
      }
    }
    return {};
  }

  // The finished attempt's record, or nullopt when the model gave no response
  // (after its retries): nothing is recorded then, so a resumed run asks again.
  base::Result<std::optional<json>> attempt(const Chain& c, const AttemptKey& key, const ChatRequest& request) {
    TRY_ASSIGN(std::string dir, d_.store.artifact_dir(key));
    std::string prompt_text;
    for (const auto& m : request.messages) prompt_text += "### " + m.role + "\n\n" + m.content + "\n\n";
    TRY(base::write_file(dir + "/prompt.md", "### system\n\n" + request.system + "\n\n" + prompt_text));

    json response;
    if (auto stored = d_.store.response(key)) {
      response = *stored;  // received before an interruption: never asked again
    } else {
      auto completion = d_.ask(*c.model, key, request);
      if (completion) {
        const auto& r = completion->response;
        response = {{"text", r.text}, {"reasoning", r.reasoning}, {"finish_reason", r.finish_reason},
                    {"id", r.id}, {"requests", completion->requests},
                    {"usage", {{"input_tokens", r.usage.input_tokens},
                               {"cached_input_tokens", r.usage.cached_input_tokens},
                               {"output_tokens", r.usage.output_tokens},
                               {"reasoning_tokens", r.usage.reasoning_tokens}}},
                    {"cost_usd", cost_usd(r.usage, c.model->price)}};
      } else {
        std::lock_guard<std::mutex> lock(mutex_);
        ++model_failures_;
        if (d_.on_model_error) d_.on_model_error(key, completion.error().message);
        return std::optional<json>();
      }
      TRY(d_.store.record_response(key, response));
    }

    json record = {{"response_text", response.value("text", "")}, {"usage", response.value("usage", json::object())},
                   {"cost_usd", response.value("cost_usd", 0.0)}};
    TRY(base::write_file(dir + "/response.md", response.value("text", "")));
    Extraction e = extract_code(response.value("text", ""));
    if (!e.code) {
      record["status"] = "no_code";
      record["message"] = e.note;
      auto feedback = d_.templates.render("feedback_no_code", {{"reason", e.note}});
      if (!feedback) return feedback.error();
      record["feedback"] = *feedback;
    } else {
      TRY(base::write_file(dir + (d_.target.backend == "cuda" ? "/candidate.cu" : "/candidate.cpp"), *e.code));
      auto outcome = d_.evaluator.evaluate(*c.problem, *e.code, d_.eval_settings);
      if (!outcome) return outcome.error();
      json summary = eval::summary_json(*outcome);
      TRY(base::write_file(dir + "/result.json", summary.dump(2)));
      if (outcome->compile) TRY(base::write_file(dir + "/compile.log", outcome->compile->log));
      for (const char* k : {"status", "speedup", "candidate_ms", "reference_ms", "message"}) record[k] = summary[k];
      auto feedback = render_feedback(d_.templates, *outcome, c.strategy->feedback, key.turn);
      if (!feedback) return feedback.error();
      record["feedback"] = *feedback;
    }
    TRY(d_.store.record_attempt(key, record));
    return d_.store.attempt(key);
  }

  void report(const json& record, int turn, bool became_fast) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++progress_.done;
    progress_.fast_1_chains += became_fast;
    progress_.correct += record.value("status", "") == "correct";
    progress_.max_turn = std::max(progress_.max_turn, turn);
    const json& u = record.contains("usage") ? record["usage"] : json::object();
    progress_.tokens += u.value("input_tokens", int64_t{0}) + u.value("output_tokens", int64_t{0});
    progress_.cost_usd += record.value("cost_usd", 0.0);
    if (d_.on_progress) d_.on_progress(progress_);
  }

  CampaignDeps& d_;
  std::vector<Chain> chains_;
  std::atomic<size_t> next_{0};
  std::mutex mutex_;
  Progress progress_;
  int model_failures_ = 0;
  base::Status failure_;
};

}  // namespace

base::Status run_campaign(CampaignDeps& deps) { return Runner(deps).run(); }

}  // namespace agent
