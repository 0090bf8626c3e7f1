// refinery report RUN_DIR... [--json] [--html] [--out DIR] [--leave-out ...] [--compare RUN_DIR]
// refinery compare RUN_A[:ARM] RUN_B[:ARM] [--json] [--html FILE] [--resamples N] [--seed S]
// refinery export RUN_DIR... --format csv|jsonl [--out DIR]
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "agent/campaign/run_store.h"
#include "agent/cli/args.h"
#include "agent/cli/commands.h"
#include "agent/cli/context.h"
#include "agent/cli/report_files.h"
#include "agent/report/report_printers.h"
#include "agent/report/run_data.h"
#include "agent/report/search_tree.h"
#include "base/fs.h"
#include "base/text.h"

namespace agent {
namespace fs = std::filesystem;

namespace {

std::string utc_now() {
  const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return stamp;
}

// The rows of `run`, their links relative to the folder the page is written to.
std::vector<AttemptRow> rows_of(const RunData& run, const fs::path& page_dir) {
  auto rows = attempt_rows(run.attempts, run.config.count_unstable, run.accepted, run.labels);
  const fs::path base = fs::absolute(page_dir).lexically_normal();
  for (size_t i = 0; i < rows.size() && i < run.attempt_dirs.size(); ++i)
    rows[i].dir = fs::absolute(run.attempt_dirs[i]).lexically_normal().lexically_relative(base).string();
  return rows;
}

CompareSide side_of(const std::string& label, const ModelConfig& m, const StrategyConfig& s,
                    const std::vector<std::string>& problems, const std::vector<AttemptRow>& rows) {
  // A branching search is one chain per problem (as the report counts it).
  CompareSide side{label, problems, s.branching() ? 1 : s.samples, s.turns, {}};
  for (const auto& r : rows)
    if (r.model == m.name && r.strategy == s.name) {
      side.rows.push_back(r);
      if (s.branching()) side.rows.back().sample = 0;
    }
  return side;
}

std::vector<std::string> counted_problems(const std::vector<std::string>& problems,
                                          const std::vector<std::string>& left_out) {
  const std::set<std::string> out(left_out.begin(), left_out.end());
  std::vector<std::string> counted;
  for (const auto& p : problems)
    if (!out.count(p)) counted.push_back(p);
  return counted;
}

}  // namespace

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

int write_reports(const RunData& run, const fs::path& out, bool json_out, bool html_out,
                  const std::vector<std::string>& extra_leave_out, const eval::ProblemIndex& index,
                  std::optional<VerdictComparison> compared) {
  std::vector<std::string> leave_out = run.config.leave_out;
  leave_out.insert(leave_out.end(), extra_leave_out.begin(), extra_leave_out.end());
  auto left_out = left_out_of(leave_out, run.problems, index);
  if (!left_out) {
    std::fprintf(stderr, "refinery report: %s\n", left_out.error().message.c_str());
    return 1;
  }
  for (const auto& p : run.shard_problems) std::fprintf(stderr, "refinery report: %s\n", p.c_str());
  CampaignReport report = campaign_report(run.config, run.problems, run.attempts, *left_out, leave_out, run.accepted,
                                          run.labels, &run.arms);
  report.shards = run.shards;
  report.compare = std::move(compared);
  for (const auto& [chain, budget] : run.budget_ends)
    for (auto& arm : report.arms)
      if (chain.rfind(arm.model + "/" + arm.strategy + "/", 0) == 0) ++arm.ended_by_budget[budget];
  const auto rows = rows_of(run, out);
  // Every other arm against the first, paired over the problems both were asked.
  std::vector<Comparison> comparisons;
  const auto counted = counted_problems(run.problems, *left_out);
  for (size_t i = 1; i < run.arms.size(); ++i) {
    const auto& [m0, s0] = run.arms.front();
    const auto& [m, s] = run.arms[i];
    comparisons.push_back(compare_arms(side_of(m.name + "/" + s.name, m, s, counted, rows),
                                       side_of(m0.name + "/" + s0.name, m0, s0, counted, rows), run.config.thresholds));
  }
  const std::string json_text = to_json(report).dump(2), text = format_report(report);
  const std::string html = html_report(report, rows, comparisons, HtmlMeta{run.runs, utc_now()});
  std::error_code ec;
  fs::create_directories(out, ec);
  for (const auto& [name, content] :
       {std::pair{"report.json", &json_text}, std::pair{"report.txt", &text}, std::pair{"report.html", &html}})
    if (auto s = base::write_file_atomic((out / name).string(), *content); !s)
      std::fprintf(stderr, "refinery: %s\n", s.error().message.c_str());
  if (json_out)
    std::printf("%s\n", json_text.c_str());
  else if (html_out)
    std::printf("%s\n", (out / "report.html").c_str());
  else
    std::printf("%s", text.c_str());
  return 0;
}

int cmd_report(const std::vector<std::string>& argv) {
  auto args = parse_args(
      argv, {{"json", false, "print JSON"},
             {"html", false, "print the path of the HTML report (written in any case)"},
             {"out", true, "where report.json, .txt and .html go (default: the run folder; needed for several runs)"},
             {"leave-out", true,
              "ids, ranges, set:NAME or tag:NAME (comma-separated) to leave out of fast_p, besides report.leave_out"},
             {"problems", true, "problems folder (default: $REFINERY_PROBLEMS or the source tree's)"},
             {"tree", true,
              "print the attempts at this problem as trees, each under its parent (a beam's or an evolve search's), "
              "and write nothing"},
             {"compare", true,
              "another run folder (the same campaign in the other eval.compat mode, say): list the attempts whose "
              "verdicts differ"}});
  if (!args || args->positional.empty() || (args->positional.size() > 1 && !args->has("out"))) {
    if (!args) std::fprintf(stderr, "refinery report: %s\n", args.error().message.c_str());
    if (args && args->positional.size() > 1) std::fprintf(stderr, "refinery report: several runs need --out DIR\n");
    std::fprintf(stderr,
                 "usage: refinery report RUN_DIR... [--json | --html] [--out DIR] [--leave-out set:degenerate] "
                 "[--problems DIR] [--compare RUN_DIR] [--tree PROBLEM]\n");
    return 2;
  }
  auto run = load_runs(args->positional);
  if (!run) {
    std::fprintf(stderr, "refinery report: %s\n", run.error().message.c_str());
    return 1;
  }
  if (args->has("tree")) {
    const std::string tree = render_search_tree(run->attempts, args->get("tree"));
    if (tree.empty()) {
      std::fprintf(stderr, "refinery report: --tree: no attempt at problem '%s' in %s\n", args->get("tree").c_str(),
                   args->positional.front().c_str());
      return 1;
    }
    std::printf("%s", tree.c_str());
    return 0;
  }
  std::vector<std::string> leave_out;
  for (const auto& p : base::split(args->get("leave-out"), ','))
    if (!base::trim(p).empty()) leave_out.push_back(base::trim(p));
  std::optional<VerdictComparison> compared;
  if (args->has("compare")) {
    auto other = load_run(args->get("compare"));
    if (!other) {
      std::fprintf(stderr, "refinery report: --compare: %s\n", other.error().message.c_str());
      return 1;
    }
    compared = compare_verdicts(run->attempts, other->attempts, args->get("compare"));
  }
  const fs::path out = args->has("out") ? fs::path(args->get("out")) : fs::path(args->positional.front());
  return write_reports(*run, out, args->has("json"), args->has("html"), leave_out, problem_index(args->get("problems")),
                       std::move(compared));
}

namespace {

// "RUN[:ARM]": the run folder and the arm ("model/strategy", or a model or a
// strategy name that picks one arm); a run of one arm needs none.
struct ArmChoice {
  RunData run;
  ModelConfig model;
  StrategyConfig strategy;
  std::vector<std::string> problems;  // counted: the selection without left-out problems
  std::string label;
};

base::Result<ArmChoice> choose_arm(const std::string& text, const eval::ProblemIndex& index) {
  std::string folder = text, arm;
  if (const size_t colon = text.rfind(':'); colon != std::string::npos && !fs::is_directory(text)) {
    folder = text.substr(0, colon);
    arm = text.substr(colon + 1);
  }
  TRY_ASSIGN(RunData run, load_run(folder));
  std::vector<size_t> picked;
  std::string names;
  for (size_t i = 0; i < run.arms.size(); ++i) {
    const auto& [m, s] = run.arms[i];
    names += (names.empty() ? "" : ", ") + m.name + "/" + s.name;
    if (arm.empty() || arm == m.name + "/" + s.name || arm == m.name || arm == s.name) picked.push_back(i);
  }
  if (picked.size() != 1)
    return base::Error{text + ": " + (picked.empty() ? "no arm named '" + arm + "'" : "name one arm") +
                       " (its arms: " + names + "; write RUN:MODEL/STRATEGY)"};
  TRY_ASSIGN(std::vector<std::string> left, left_out_of(run.config.leave_out, run.problems, index));
  ArmChoice c{std::move(run), {}, {}, {}, ""};
  c.model = c.run.arms[picked.front()].first;
  c.strategy = c.run.arms[picked.front()].second;
  c.problems = counted_problems(c.run.problems, left);
  c.label = folder + ":" + c.model.name + "/" + c.strategy.name;
  return c;
}

}  // namespace

int cmd_compare(const std::vector<std::string>& argv) {
  auto args =
      parse_args(argv, {{"json", false, "print JSON"},
                        {"html", true, "also write the comparison as an HTML page to this file"},
                        {"resamples", true, "bootstrap resamples (default 2000)"},
                        {"seed", true, "the bootstrap's seed (default 1)"},
                        {"problems", true, "problems folder (default: $REFINERY_PROBLEMS or the source tree's)"}});
  if (!args || args->positional.size() != 2) {
    if (!args) std::fprintf(stderr, "refinery compare: %s\n", args.error().message.c_str());
    std::fprintf(
        stderr,
        "usage: refinery compare RUN_A[:ARM] RUN_B[:ARM] [--json] [--html FILE] [--resamples N] [--seed S]\n"
        "ARM: MODEL/STRATEGY (or a model or strategy name that picks one arm); A - B and A / B are reported\n");
    return 2;
  }
  auto resamples = args->integer("resamples", 2000, 100, 1000000);
  auto seed = args->integer("seed", 1, 0, INT64_MAX);
  if (!resamples || !seed) {
    std::fprintf(stderr, "refinery compare: %s\n", (!resamples ? resamples : seed).error().message.c_str());
    return 2;
  }
  const auto index = problem_index(args->get("problems"));
  auto a = choose_arm(args->positional[0], index);
  auto b = a ? choose_arm(args->positional[1], index) : base::Result<ArmChoice>(a.error());
  if (!a || !b) {
    std::fprintf(stderr, "refinery compare: %s\n", (!a ? a.error() : b.error()).message.c_str());
    return 1;
  }
  if (a->run.config.thresholds != b->run.config.thresholds || a->run.config.eval.backend != b->run.config.eval.backend)
    std::fprintf(stderr,
                 "refinery compare: note: the runs differ in thresholds or backend; A's thresholds are used, and "
                 "speedups from different backends are not comparable\n");
  const fs::path page_dir = args->has("html") ? fs::path(args->get("html")).parent_path() : fs::path(".");
  const auto rows_a = rows_of(a->run, page_dir), rows_b = rows_of(b->run, page_dir);
  const Comparison c =
      compare_arms(side_of(a->label, a->model, a->strategy, a->problems, rows_a),
                   side_of(b->label, b->model, b->strategy, b->problems, rows_b), a->run.config.thresholds,
                   static_cast<int>(*resamples), static_cast<uint64_t>(*seed));
  if (args->has("html")) {
    // One page: each side as an arm of its own ("A" and "B", its run and arm
    // beside), both sides' attempts, and the comparison.
    CampaignReport report;
    std::vector<AttemptRow> rows;
    for (const auto* side : {&*a, &*b}) {
      const char* name = side == &*a ? "A" : "B";
      const std::vector<std::pair<ModelConfig, StrategyConfig>> arm = {{side->model, side->strategy}};
      CampaignReport one = campaign_report(side->run.config, side->problems, side->run.attempts, {}, {},
                                           side->run.accepted, side->run.labels, &arm);
      if (report.arms.empty())
        report = one;
      else
        report.arms.push_back(one.arms.front());
      report.arms.back().model = name;
      report.arms.back().strategy = side->label;
      for (auto r : side == &*a ? rows_a : rows_b)
        if (r.model == side->model.name && r.strategy == side->strategy.name) {
          r.model = name;
          r.strategy = side->label;
          rows.push_back(std::move(r));
        }
    }
    report.config = "A: " + a->label + " against B: " + b->label;
    const std::string html =
        html_report(report, rows, {c}, HtmlMeta{{a->run.runs.front(), b->run.runs.front()}, utc_now()});
    if (auto s = base::write_file_atomic(args->get("html"), html); !s) {
      std::fprintf(stderr, "refinery compare: %s\n", s.error().message.c_str());
      return 1;
    }
  }
  if (args->has("json"))
    std::printf("%s\n", to_json(c).dump(2).c_str());
  else
    std::printf("%s", format_comparison(c).c_str());
  return 0;
}

}  // namespace agent

namespace agent {

int cmd_export(const std::vector<std::string>& argv) {
  auto args =
      parse_args(argv, {{"format", true, "csv or jsonl"},
                        {"out", true, "where the files go (default: RUN_DIR/export; needed for several runs)"},
                        {"leave-out", true, "as refinery report's"},
                        {"problems", true, "problems folder (default: $REFINERY_PROBLEMS or the source tree's)"}});
  const std::string format = args ? args->get("format") : "";
  if (!args || args->positional.empty() || (format != "csv" && format != "jsonl") ||
      (args->positional.size() > 1 && !args->has("out"))) {
    if (!args)
      std::fprintf(stderr, "refinery export: %s\n", args.error().message.c_str());
    else if (format != "csv" && format != "jsonl")
      std::fprintf(stderr, "refinery export: --format must be csv or jsonl, got '%s'\n", format.c_str());
    std::fprintf(stderr,
                 "usage: refinery export RUN_DIR... --format csv|jsonl [--out DIR]\n"
                 "writes DIR/attempts.FORMAT (one row per attempt) and DIR/turns.FORMAT (one per arm and turn)\n");
    return 2;
  }
  auto run = load_runs(args->positional);
  if (!run) {
    std::fprintf(stderr, "refinery export: %s\n", run.error().message.c_str());
    return 1;
  }
  std::vector<std::string> leave_out = run->config.leave_out;
  for (const auto& p : base::split(args->get("leave-out"), ','))
    if (!base::trim(p).empty()) leave_out.push_back(base::trim(p));
  auto left_out = left_out_of(leave_out, run->problems, problem_index(args->get("problems")));
  if (!left_out) {
    std::fprintf(stderr, "refinery export: %s\n", left_out.error().message.c_str());
    return 1;
  }
  const fs::path out = args->has("out") ? fs::path(args->get("out")) : fs::path(args->positional.front()) / "export";
  const CampaignReport report = campaign_report(run->config, run->problems, run->attempts, *left_out, leave_out,
                                                run->accepted, run->labels, &run->arms);
  const auto rows = rows_of(*run, out);
  std::error_code ec;
  fs::create_directories(out, ec);
  const bool csv = format == "csv";
  for (const auto& [name, content] : {std::pair{"attempts." + format, csv ? attempts_csv(rows) : attempts_jsonl(rows)},
                                      std::pair{"turns." + format, csv ? turns_csv(report) : turns_jsonl(report)}}) {
    if (auto s = base::write_file_atomic((out / name).string(), content); !s) {
      std::fprintf(stderr, "refinery export: %s\n", s.error().message.c_str());
      return 1;
    }
    std::printf("%s\n", (out / name).c_str());
  }
  return 0;
}

}  // namespace agent
