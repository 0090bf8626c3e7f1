// refinery run CONFIG [--out DIR] [--force]
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
#include "agent/cli/report_files.h"
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

}  // namespace

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
      [&](const eval::Problem& p, const std::string& source, const EvalAs& as) {
        eval::EvalSettings s = settings;
        s.language = as.language;
        s.precision = as.precision;
        return evaluator.evaluate(p, source, s);
      },
      settings,
      *templates,
      Target{settings.backend, eval::language_for(settings.backend), (*ctx)->hardware, (*ctx)->compiler_name,
             REFINERY_TORCH_VERSION, settings.precision},
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
  auto run = load_run(out.string());
  if (!run) {
    std::fprintf(stderr, "refinery run: %s\n", run.error().message.c_str());
    return 1;
  }
  const int code = write_reports(*run, out, false, false, {}, problem_index(args->get("problems")));
  if (code == 0) std::printf("report: %s (open it in a browser)\n", (out / "report.html").c_str());
  if (g_stop.load()) {
    std::printf("stopped; run the same command again to resume\n");
    return base::exit_code(base::Error{"", base::ErrorKind::interrupted});
  }
  return code;
}

}  // namespace agent
