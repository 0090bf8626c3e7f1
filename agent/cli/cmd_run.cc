// refinery run CONFIG [--out DIR] [--force]   and   refinery report RUN_DIR [--json]
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "agent/campaign/campaign.h"
#include "agent/campaign/shard.h"
#include "agent/cli/accepted.h"
#include "agent/cli/commands.h"
#include "agent/cli/context.h"
#include "agent/cli/printer.h"
#include "agent/cli/status_line.h"
#include "agent/config.h"
#include "agent/model/http.h"
#include "agent/model/replay.h"
#include "agent/report/report_printers.h"
#include "base/fs.h"
#include "base/text.h"
#include "build_info.h"

namespace agent {
namespace fs = std::filesystem;
namespace {

std::atomic<bool> g_stop{false};
void on_interrupt(int) {
  g_stop.store(true);
}  // the one static hook: stop issuing work

base::Result<std::vector<eval::Problem>> select_problems(const Config& config, const eval::ProblemIndex& index) {
  std::vector<eval::Problem> out;
  auto add = [&](eval::Problem p) {
    for (const auto& q : out)
      if (q.id == p.id) return;
    out.push_back(std::move(p));
  };
  for (const auto& id : config.problems.ids) {
    auto some = index.select(id);
    if (!some) return some.error().wrap(config.path);
    for (auto& p : *some) add(std::move(p));
  }
  if (!config.problems.levels.empty()) {
    TRY_ASSIGN(std::vector<eval::Problem> all, index.list());
    for (auto& p : all)
      for (int level : config.problems.levels)
        if (p.level == level) add(p);
  }
  return out;
}

// The selected problems that `patterns` (config.leave_out and --leave-out) name.
base::Result<std::vector<std::string>> left_out_of(const std::vector<std::string>& patterns,
                                                   const std::vector<std::string>& problems,
                                                   const eval::ProblemIndex& index) {
  std::set<std::string> named;
  for (const auto& pattern : patterns) {
    auto some = index.select(pattern);
    if (!some) return some.error().wrap("leave_out");
    for (const auto& p : *some) named.insert(p.id);
  }
  std::vector<std::string> out;
  for (const auto& p : problems)
    if (named.count(p)) out.push_back(p);
  return out;
}

// Writes report.json and report.txt into the run folder and prints one of them.
int emit_report(const fs::path& run, const Config& config, const std::vector<std::string>& problems,
                const std::vector<Attempt>& attempts, bool json_out, const std::vector<std::string>& leave_out,
                const eval::ProblemIndex& index, std::optional<VerdictComparison> compared = {},
                std::optional<ShardsRead> shards = {}) {
  auto left_out = left_out_of(leave_out, problems, index);
  if (!left_out) {
    std::fprintf(stderr, "refinery report: %s\n", left_out.error().message.c_str());
    return 1;
  }
  auto accepted = read_accepted(run.string());
  if (!accepted) {
    std::fprintf(stderr, "refinery report: %s\n", accepted.error().message.c_str());
    return 1;
  }
  CampaignReport report = campaign_report(config, problems, attempts, *left_out, leave_out, *accepted);
  report.shards = std::move(shards);
  report.compare = std::move(compared);
  const std::string json_text = to_json(report).dump(2), text = format_report(report);
  for (const auto& [name, content] : {std::pair{"report.json", json_text}, std::pair{"report.txt", text}})
    if (auto s = base::write_file_atomic((run / name).string(), content); !s)
      std::fprintf(stderr, "refinery: %s\n", s.error().message.c_str());
  if (json_out)
    std::printf("%s\n", json_text.c_str());
  else
    std::printf("%s", text.c_str());
  return 0;
}

// `refinery report RUN` for a sharded run (agent/campaign/shard.h): every
// shard read as one campaign, and what is missing, doubled or foreign said.
int report_shards(const fs::path& run, const Args& args) {
  auto shards = read_shards(run.string());
  if (!shards) {
    std::fprintf(stderr, "refinery report: %s\n", shards.error().message.c_str());
    return 1;
  }
  auto config = parse_config(shards->config_text, (run / "shards" / "config.yaml").string());
  if (!config) {
    std::fprintf(stderr, "refinery report: %s\n", config.error().message.c_str());
    return 1;
  }
  std::vector<std::string> leave_out = config->leave_out;
  for (const auto& p : base::split(args.get("leave-out"), ','))
    if (!base::trim(p).empty()) leave_out.push_back(base::trim(p));
  for (const auto& p : shards->problems) std::fprintf(stderr, "refinery report: %s\n", p.c_str());
  return emit_report(run, *config, shards->selection, shards->attempts, args.has("json"), leave_out,
                     problem_index(args.get("problems")), {},
                     ShardsRead{shards->count, shards->dirs.size(), shards->problems});
}

}  // namespace

int cmd_report(const std::vector<std::string>& argv) {
  auto args = parse_args(
      argv, {{"json", false, "print JSON"},
             {"leave-out", true,
              "ids, ranges, set:NAME or tag:NAME (comma-separated) to leave out of fast_p, besides report.leave_out"},
             {"problems", true, "problems folder (default: $REFINERY_PROBLEMS or the source tree's)"},
             {"compare", true,
              "another run folder (the same campaign in the other eval.compat mode, say): list the attempts whose "
              "verdicts differ"}});
  if (!args || args->positional.size() != 1) {
    if (!args) std::fprintf(stderr, "refinery report: %s\n", args.error().message.c_str());
    std::fprintf(
        stderr,
        "usage: refinery report RUN_DIR [--json] [--leave-out set:degenerate] [--problems DIR] [--compare RUN_DIR]\n");
    return 2;
  }
  const fs::path run = args->positional[0];
  if (!fs::exists(run / "config.yaml") && fs::is_directory(run / "shards")) return report_shards(run, *args);
  auto config_text = base::read_file((run / "config.yaml").string());
  auto selection_text = base::read_file((run / "selection.json").string());
  if (!config_text || !selection_text) {
    std::fprintf(stderr, "refinery report: %s is not a run folder (no config.yaml or selection.json)\n", run.c_str());
    return 1;
  }
  auto config = parse_config(*config_text, (run / "config.yaml").string());
  if (!config) {
    std::fprintf(stderr, "refinery report: %s\n", config.error().message.c_str());
    return 1;
  }
  auto selection = nlohmann::json::parse(*selection_text, nullptr, false);
  if (selection.is_discarded() || !selection.is_array()) {
    std::fprintf(stderr, "refinery report: %s is not a JSON list of problem ids\n", (run / "selection.json").c_str());
    return 1;
  }
  auto store = RunStore::open(run.string(), *config_text, false, /*exclusive=*/false);
  if (!store) {
    std::fprintf(stderr, "refinery report: %s\n", store.error().message.c_str());
    return 1;
  }
  std::vector<std::string> leave_out = config->leave_out;
  for (const auto& p : base::split(args->get("leave-out"), ','))
    if (!base::trim(p).empty()) leave_out.push_back(base::trim(p));
  std::optional<VerdictComparison> compared;
  if (args->has("compare")) {
    const fs::path other = args->get("compare");
    auto other_config = base::read_file((other / "config.yaml").string());
    if (!other_config) {
      std::fprintf(stderr, "refinery report: --compare: %s is not a run folder (no config.yaml)\n", other.c_str());
      return 1;
    }
    auto other_store = RunStore::open(other.string(), *other_config, false, /*exclusive=*/false);
    if (!other_store) {
      std::fprintf(stderr, "refinery report: --compare: %s\n", other_store.error().message.c_str());
      return 1;
    }
    compared = compare_verdicts(store->attempts(), other_store->attempts(), other.string());
  }
  return emit_report(run, *config, selection.get<std::vector<std::string>>(), store->attempts(), args->has("json"),
                     leave_out, problem_index(args->get("problems")), compared);
}

int cmd_run(const std::vector<std::string>& argv) {
  std::vector<FlagSpec> flags = {
      {"out", true, "run folder (default: runs/<config name>)"},
      {"force", false, "continue a run folder whose config changed"},
      {"threads", true,
       "evaluation threads: compiles and worker runs in flight (default: cores + 1 on cuda, 1 on cpu)"},
      {"cache-dir", true, "compile cache"},
      {"problems", true, "problems folder"},
      {"shard", true, "I/N: run only shard I of N of the chains (default folder runs/<name>/shards/I)"}};
  // The usage text goes with usage errors only; the exit code follows the error's kind.
  auto fail = [&](const base::Error& e) {
    std::fprintf(stderr, "refinery run: %s\n", e.message.c_str());
    if (e.kind == base::ErrorKind::usage)
      std::fprintf(stderr, "usage: refinery run CONFIG [flags]\n%s", flags_help(flags).c_str());
    return base::exit_code(e);
  };
  auto args = parse_args(argv, flags);
  if (!args) return fail(args.error());
  if (args->positional.size() != 1) return fail(base::usage_error("one CONFIG file expected"));
  auto threads = args->integer("threads", 0, 1, 1024);
  if (!threads) return fail(threads.error());
  ShardSpec shard;
  if (args->has("shard")) {
    auto parsed = parse_shard(args->get("shard"));
    if (!parsed) return fail(parsed.error());
    shard = *parsed;
  }
  const std::string config_path = args->positional[0];
  auto config_text = base::read_file(config_path);
  if (!config_text) return fail(config_text.error());
  auto config = parse_config(*config_text, config_path);
  if (!config) return fail(config.error());
  for (const auto& note : config->notes)
    std::fprintf(stderr, "refinery run: %s: %s\n", config_path.c_str(), note.c_str());
  auto problems = select_problems(*config, problem_index(args->get("problems")));
  if (!problems) return fail(problems.error());
  {  // a report.leave_out that names nothing is a broken config, known now rather than after the campaign
    std::vector<std::string> ids;
    for (const auto& p : *problems) ids.push_back(p.id);
    if (auto left = left_out_of(config->leave_out, ids, problem_index(args->get("problems"))); !left)
      return fail(left.error().wrap(config_path + ": report"));
  }

  // The evaluation context, from the config's eval section, its problems.size
  // and seed, and the two folder flags.
  eval::EvalSettings asked = config->eval;
  asked.asked.size = config->problems.size;
  asked.seed = config->seed;
  asked.compile.cache_dir = args->get("cache-dir");
  asked.problems_dir = args->get("problems");
  if (asked.asked.profiler == eval::Profiler::automatic) {
    bool profile_feedback = false;
    for (const auto& s : config->strategies)
      for (const auto& k : s.feedback) profile_feedback = profile_feedback || k == "profile";
    asked.asked.profiler = profile_feedback ? eval::Profiler::cupti : eval::Profiler::none;
  }
  // Every model's key is a secret, whatever its variable is called.
  std::vector<std::string> secret_names;
  for (const auto& m : config->models)
    if (!m.api_key_env.empty()) secret_names.push_back(m.api_key_env);
  auto ctx = make_context(asked, secret_names);
  if (!ctx) return fail(ctx.error().wrap(config_path));
  eval::EvalSettings settings = (*ctx)->settings;

  // Every model's source of responses; keys are checked before anything starts.
  CurlHttpClient http(&g_stop);
  std::map<std::string, std::unique_ptr<ModelClient>> clients;
  std::map<std::string, Replay> replays;
  for (const auto& m : config->models) {
    if (!over_http(provider_row(m.provider).api)) {
      // A relative source is relative to the config file, like any path a config names.
      fs::path source = m.replay_from;
      if (source.is_relative()) source = fs::path(config_path).parent_path() / source;
      auto r = Replay::load(source.string());
      if (!r) return fail(r.error().wrap("model '" + m.name + "'"));
      replays.emplace(m.name, std::move(r).value());
      continue;
    }
    auto key = api_key_for(m);
    if (!key) return fail(key.error());
    // Waits before a retry end at once on Ctrl-C; so does a request in flight.
    clients[m.name] = std::make_unique<ModelClient>(
        m, *key, http, [](double s) { return sleep_unless(s, g_stop); },
        config->seed.value_or(std::random_device{}()) ^ std::hash<std::string>{}(m.name));
  }

  fs::path out = args->get(
      "out", "runs/" + config->name + (shard.sharded() ? "/shards/" + std::to_string(shard.index) : std::string()));
  auto store = RunStore::open(out.string(), *config_text, args->has("force"));
  if (!store) return fail(store.error());
  if (shard.sharded()) {
    // A shard folder says which shard it is; one that says another is not reused.
    const std::string meta_path = (out / "shard.json").string();
    const nlohmann::json meta = {{"index", shard.index}, {"count", shard.count}};
    if (auto old = base::read_file(meta_path)) {
      auto j = nlohmann::json::parse(*old, nullptr, false);
      if (j != meta)
        return fail(base::Error{meta_path + " says " + old->substr(0, 80) + ", not shard " + args->get("shard")});
    } else if (!store->attempts().empty()) {
      return fail(base::Error{out.string() +
                              " holds attempts of a run that was not sharded; give the shard a folder of its own"});
    } else if (auto s = base::write_file_atomic(meta_path, meta.dump() + "\n"); !s) {
      return fail(s.error());
    }
  }
  for (const auto& w : store->warnings()) std::fprintf(stderr, "refinery run: %s\n", w.c_str());
  std::vector<std::string> selection;
  for (const auto& p : *problems) selection.push_back(p.id);
  if (auto s = base::write_file_atomic((out / "selection.json").string(), nlohmann::json(selection).dump(2)); !s)
    return fail(s.error());

  auto templates = PromptTemplates::load(default_prompts_dir());
  if (!templates) return fail(templates.error());
  Printer printer;
  const bool terminal = isatty(fileno(stdout));
  auto start = std::chrono::steady_clock::now();
  StatusLine status_line(stdout, terminal, static_cast<int>(store->attempts().size()));
  eval::Evaluator& evaluator = *(*ctx)->evaluator;
  CampaignDeps deps{
      *config,
      *store,
      *problems,
      [&](const eval::Problem& p, const std::string& source, eval::LanguageId language) {
        eval::EvalSettings s = settings;
        s.language = language;
        return evaluator.evaluate(p, source, s);
      },
      settings,
      *templates,
      Target{settings.backend, eval::language_for(settings.backend), (*ctx)->hardware, (*ctx)->compiler_name,
             REFINERY_TORCH_VERSION},
      [&](const ModelConfig& m, const AttemptKey& key, const ChatRequest& request) -> base::Result<Completion> {
        if (auto r = replays.find(m.name); r != replays.end()) return r->second.answer(m, key);
        return clients.at(m.name)->complete(request);
      },
      [&](const Progress& p) {
        status_line.show(p, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      },
      [](const AttemptKey& key, const std::string& error) {
        std::fprintf(stderr, "\nrefinery run: %s: %s (this chain continues when the run is resumed)\n",
                     key.str().c_str(), error.c_str());
      },
      &g_stop,
      *threads > 0 ? static_cast<int>(*threads)
                   : default_eval_threads(settings.backend, static_cast<int>((*ctx)->devices.size())),
      0,
      shard};
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  auto status = run_campaign(deps);
  if (terminal) std::printf("\n");
  if (!status) {
    printer.failed("campaign " + config->name, status.error().message);
    return 1;
  }
  std::printf("run folder: %s\n", out.c_str());
  // The store in hand already holds every attempt: no second read of the logs.
  const int code = emit_report(out, *config, selection, store->attempts(), false, config->leave_out,
                               problem_index(args->get("problems")));
  if (g_stop.load()) {
    std::printf("stopped; run the same command again to resume\n");
    return base::exit_code(base::Error{"", base::ErrorKind::interrupted});
  }
  return code;
}

}  // namespace agent
