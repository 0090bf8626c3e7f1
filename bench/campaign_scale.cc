// A campaign at full scale with the model and the evaluation replaced by
// instant fakes, so that what is measured is refinery's own cost: scheduling,
// prompts and feedback, the run store's fsync'ed logs and artifacts, and the
// memory all of that holds.
//
//   refinery_bench_campaign --out DIR [--problems 250] [--samples 4] [--turns 10]
//                           [--response-bytes 4000] [--history full|last]
//                           [--strategy refine|beam|evolve]
//
// --strategy beam runs a beam of width 4 x branch 2 (8 attempts a round) and
// evolve 2 islands x 4 (8 a generation), each for --turns rounds; refine runs
// --samples chains of --turns. Besides the campaign's wall time it prints
// strategy_s: the time the strategy's own decisions take (every turn's
// Strategy::next, or every round's Search::round, recomputed from the
// finished records with responses of --response-bytes), and its share of the
// wall time.
//
// The problems are copies of the ones in problems/, written to DIR/problems as
// level4/1 .. level4/N. The first run fills DIR/run; running the same command
// again resumes it (nothing is left to do, so that run is the resume's cost).
// DIR/bench.yaml is the campaign's config and DIR/run/selection.json its
// problems, so the CLI's resume and report can be timed too (bench/report_scale.sh):
//   REFINERY_BENCH_KEY=x refinery run DIR/bench.yaml --out DIR/run --problems DIR/problems
// (its model is on a closed port: with every attempt done it is never asked).
// Prints one JSON line of figures.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>

#include "agent/campaign/campaign.h"
#include "agent/campaign/strategy.h"
#include "agent/cli/args.h"
#include "base/fs.h"
#include "base/mix.h"
#include "base/text.h"
#include "eval/problems/problem.h"
#include "eval/problems/problem_index.h"

namespace {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A response that looks like a model's: a paragraph and a code block of about `bytes`.
std::string fake_response(const agent::AttemptKey& key, size_t bytes) {
  std::string code = "// " + key.str() + "\n#include <torch/extension.h>\n";
  for (int i = 0; code.size() < bytes; ++i)
    code += "  float v" + std::to_string(i) + " = x[i * " + std::to_string(i) + "] * 0.5f + bias[" +
            std::to_string(i % 7) + "];\n";
  return "The kernel below fuses the elementwise work into one pass and keeps the loads coalesced.\n\n```cuda\n" +
         code + "```\n";
}

eval::Outcome fake_outcome(const std::string& source) {
  uint64_t h = base::mix64(std::hash<std::string>{}(source));
  eval::Outcome o;
  o.phases_ms = {{"compile", 0}, {"total", 0}};
  switch (h % 10) {
    case 0:
    case 1:
    case 2: {
      o.status = eval::Status::compile_error;
      o.message = "the candidate does not compile";
      std::string log;
      for (int i = 0; log.size() < 6000; ++i)
        log += "candidate.cu(" + std::to_string(40 + i) + "): error: identifier \"v" + std::to_string(i) +
               "\" is undefined\n";
      o.compile = eval::CompileInfo{false, false, 0, log, "nvcc", "", {}};
      break;
    }
    case 3:
    case 4: {
      o.status = eval::Status::mismatch;
      o.message = "output 0 differs in trial 0";
      for (int t = 0; t < 5; ++t) {
        eval::TrialDiff d{t, 0, 0.5, 2.0, 1000, 1 << 20, false, {}};
        for (int64_t i = 0; i < 5; ++i) d.first.push_back({{i, 3 * i}, 1.0, 1.5});
        o.trials.push_back(d);
      }
      break;
    }
    default: {
      o.status = eval::Status::correct;
      o.timing = eval::Timing{};
      o.timing->reference.median_ms = 1.0;
      o.timing->speedup = 0.3 + static_cast<double>(h % 1000) / 370.0;
      o.timing->candidate.median_ms = 1.0 / o.timing->speedup;
      o.timing->clock = "cuda_events";
      // As an H200's outcome says where it ran, with a speed of light for the report's figures.
      o.versions = {{"gpu", "NVIDIA H200"}, {"cuda_driver", 13000}, {"cuda_runtime", 13000}, {"libtorch", "2.11.0"}};
      o.sol = eval::SolFigures{0.05, 0.05 / o.timing->candidate.median_ms, "fp32", "H200 SXM"};
    }
  }
  return o;
}

std::string config_text(const std::string& strategy, int samples, int turns, const std::string& history) {
  std::string arm =
      "  - name: " + strategy + "\n    kind: " + strategy + "\n    turns: " + std::to_string(turns) + "\n";
  if (strategy == "refine")
    arm += "    samples: " + std::to_string(samples) + "\n    history: " + history + "\n";
  else if (strategy == "beam")
    arm += "    width: 4\n    branch: 2\n";
  else
    arm += "    islands: 2\n    per_island: 4\n";
  return "# Written by refinery_bench_campaign: a model on a closed port, so a resume must not ask it.\n"
         "name: bench\nseed: 1\nproblems:\n  levels: [4]\n  size: full\n"
         "models:\n  - name: bench\n    provider: openai\n    model: bench\n"
         "    base_url: http://127.0.0.1:9\n    api_key_env: REFINERY_BENCH_KEY\n    concurrency: 16\n"
         "    price: {input: 1.25, cached_input: 0.125, output: 10}\n"
         "strategies:\n" +
         arm + "eval:\n  backend: cuda\n";
}

// The strategy's decisions over a finished campaign, recomputed from its
// records (responses of `response_bytes` each): seconds.
double strategy_seconds(const agent::StrategyConfig& s, std::vector<agent::Attempt> attempts, size_t response_bytes) {
  std::map<std::string, std::vector<agent::Attempt>> by_unit;  // problem (a search) or problem/sample (a chain)
  for (auto& a : attempts) {
    a.response_text = std::string(response_bytes, 'x');
    a.feedback = std::string(1000, 'y');
    by_unit[a.key.problem + (s.branching() ? "" : "/" + std::to_string(a.key.sample))].push_back(std::move(a));
  }
  auto chain = agent::make_strategy(s);
  auto search = agent::make_search(s);
  size_t decided = 0;
  const auto t0 = Clock::now();
  for (auto& [unit, done] : by_unit) {
    std::sort(done.begin(), done.end(), [](const auto& x, const auto& y) {
      return x.key.turn != y.key.turn ? x.key.turn < y.key.turn : x.key.sample < y.key.sample;
    });
    for (int t = 1; t <= s.turns; ++t) {
      std::vector<agent::Attempt> before;
      for (const auto& a : done)
        if (a.key.turn < t) before.push_back(a);
      decided += search ? search->round(t, before).size() : chain->next(before).history.size();
    }
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (decided == 0) std::fprintf(stderr, "no decision was made\n");
  return seconds;
}

double peak_rss_mb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

int run(int argc, char** argv) {
  auto args = agent::parse_args(std::vector<std::string>(argv + 1, argv + argc), {{"out", true, ""},
                                                                                  {"problems", true, ""},
                                                                                  {"samples", true, ""},
                                                                                  {"turns", true, ""},
                                                                                  {"response-bytes", true, ""},
                                                                                  {"history", true, ""},
                                                                                  {"strategy", true, ""}});
  if (!args || !args->has("out")) {
    std::fprintf(stderr,
                 "usage: refinery_bench_campaign --out DIR [--problems N] [--samples K] [--turns T] "
                 "[--response-bytes B] [--history full|last]\n%s\n",
                 args ? "" : args.error().message.c_str());
    return 2;
  }
  const int n = std::atoi(args->get("problems", "250").c_str());
  const int samples = std::atoi(args->get("samples", "4").c_str());
  const int turns = std::atoi(args->get("turns", "10").c_str());
  const size_t response_bytes = std::strtoul(args->get("response-bytes", "4000").c_str(), nullptr, 10);
  const std::string history = args->get("history", "full");
  const std::string strategy = args->get("strategy", "refine");
  if (strategy != "refine" && strategy != "beam" && strategy != "evolve") {
    std::fprintf(stderr, "--strategy is refine, beam or evolve\n");
    return 2;
  }
  const fs::path out = args->get("out");

  eval::ProblemIndex index(eval::default_problems_root());
  auto all = index.list();
  if (!all || all->empty()) {
    std::fprintf(stderr, "no problems under %s\n", eval::default_problems_root().c_str());
    return 1;
  }
  // Copies under level4/<i+1>, each with its original's spec and reference.
  std::vector<eval::Problem> problems;
  const fs::path problems_dir = out / "problems";
  for (int i = 0; i < n; ++i) {
    const eval::Problem& original = (*all)[i % all->size()];
    const fs::path dir = problems_dir / "level4" / (std::to_string(i + 1) + "_" + original.name);
    auto spec = base::read_file(original.spec_path);
    auto reference = base::read_file(original.reference_path);
    if (!spec || !reference) {
      std::fprintf(stderr, "cannot read %s\n", original.dir.c_str());
      return 1;
    }
    std::string text;
    for (const auto& line : base::split(*spec, '\n')) {
      if (base::starts_with(line, "level:"))
        text += "level: 4\n";
      else if (base::starts_with(line, "number:"))
        text += "number: " + std::to_string(i + 1) + "\n";
      else
        text += line + "\n";
    }
    fs::create_directories(dir);
    if (auto s = base::write_file((dir / "spec.yaml").string(), text); !s) {
      std::fprintf(stderr, "%s\n", s.error().message.c_str());
      return 1;
    }
    if (auto s = base::write_file((dir / "reference.cpp").string(), *reference); !s) {
      std::fprintf(stderr, "%s\n", s.error().message.c_str());
      return 1;
    }
    auto p = eval::load_problem(dir.string());
    if (!p) {
      std::fprintf(stderr, "%s\n", p.error().message.c_str());
      return 1;
    }
    problems.push_back(std::move(*p));
  }

  const std::string text = config_text(strategy, samples, turns, history);
  fs::create_directories(out);
  if (auto s = base::write_file((out / "bench.yaml").string(), text); !s) {
    std::fprintf(stderr, "%s\n", s.error().message.c_str());
    return 1;
  }
  auto config = agent::parse_config(text, (out / "bench.yaml").string());
  auto templates = agent::PromptTemplates::load(agent::default_prompts_dir());
  if (!config || !templates) {
    std::fprintf(stderr, "%s\n", (!config ? config.error() : templates.error()).message.c_str());
    return 1;
  }

  std::vector<std::string> selection;
  for (const auto& p : problems) selection.push_back(p.id);
  fs::create_directories(out / "run");
  if (auto s = base::write_file((out / "run" / "selection.json").string(), nlohmann::json(selection).dump()); !s) {
    std::fprintf(stderr, "%s\n", s.error().message.c_str());
    return 1;
  }
  auto t0 = Clock::now();
  auto store = agent::RunStore::open((out / "run").string(), text, false);
  if (!store) {
    std::fprintf(stderr, "%s\n", store.error().message.c_str());
    return 1;
  }
  const double open_s = std::chrono::duration<double>(Clock::now() - t0).count();
  const size_t found = store->attempts().size();

  std::atomic<int> asked{0}, evaluated{0};
  eval::EvalSettings settings;
  settings.backend = eval::Backend::cuda;
  settings.size = eval::Size::full;
  agent::CampaignDeps deps{
      *config,
      *store,
      problems,
      [&](const eval::Problem&, const std::string& source, const agent::EvalAs&) -> base::Result<eval::Outcome> {
        ++evaluated;
        return fake_outcome(source);
      },
      settings,
      *templates,
      agent::Target{eval::Backend::cuda, eval::LanguageId::cuda_cxx, "NVIDIA H200, 132 SMs, 141 GB HBM3e at 4.8 TB/s",
                    "nvcc 13.0 (sm_90a)", "2.11"},
      [&](const agent::ModelConfig&, const agent::AttemptKey& key,
          const agent::ChatRequest& request) -> base::Result<agent::Completion> {
        ++asked;
        agent::Completion c;
        c.requests = 1;
        c.response.text = fake_response(key, response_bytes);
        size_t prompt_bytes = request.system.size();
        for (const auto& m : request.messages) prompt_bytes += m.content.size();
        c.response.usage.input_tokens = static_cast<int64_t>(prompt_bytes / 4);
        c.response.usage.output_tokens = static_cast<int64_t>(c.response.text.size() / 4);
        return c;
      },
      nullptr,
      nullptr,
      nullptr,
      agent::default_eval_threads(eval::Backend::cuda)};
  auto status = agent::run_campaign(deps);
  const double wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!status) {
    std::fprintf(stderr, "campaign: %s\n", status.error().message.c_str());
    return 1;
  }
  const size_t attempts = store->attempts().size();
  const double strategy_s = strategy_seconds(config->strategies.front(), store->attempts(), response_bytes);
  uintmax_t store_bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(out / "run"))
    if (e.is_regular_file()) store_bytes += e.file_size();
  std::printf(
      "{\"problems\": %d, \"samples\": %d, \"turns\": %d, \"history\": \"%s\", \"attempts_found\": %zu, "
      "\"attempts\": %zu, \"asked\": %d, \"evaluated\": %d, \"open_s\": %.3f, \"wall_s\": %.3f, "
      "\"new_attempts_per_s\": %.1f, \"peak_rss_mb\": %.1f, \"store_mb\": %.1f, \"strategy\": \"%s\", "
      "\"strategy_s\": %.3f, \"strategy_share\": %.5f}\n",
      n, samples, turns, history.c_str(), found, attempts, asked.load(), evaluated.load(), open_s, wall_s,
      attempts > found ? static_cast<double>(attempts - found) / wall_s : 0.0, peak_rss_mb(),
      static_cast<double>(store_bytes) / (1 << 20), strategy.c_str(), strategy_s, strategy_s / wall_s);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return run(argc, argv);
}
