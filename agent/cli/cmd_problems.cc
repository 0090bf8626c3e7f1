// refinery problems list [ID...] | show ID | check [ID...] | hidden [ID...]; an ID may be a range or a set
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <future>
#include <optional>
#include <thread>

#include "agent/cli/audit.h"
#include "agent/cli/commands.h"
#include "agent/cli/context.h"
#include "agent/cli/format.h"
#include "agent/cli/printer.h"
#include "base/fs.h"
#include "base/text.h"

namespace agent {
namespace {

// References per batch of `problems check` (compile_batch): big enough that
// reading LibTorch's headers is a small share, small enough that a batch
// with a broken reference costs little to redo one by one.
constexpr size_t kReferenceBatch = 25;

// The problems that ids, ranges and sets name, each once, in the order named.
base::Result<std::vector<eval::Problem>> select(const eval::ProblemIndex& index,
                                                const std::vector<std::string>& patterns) {
  std::vector<eval::Problem> out;
  for (const auto& pattern : patterns) {
    TRY_ASSIGN(std::vector<eval::Problem> some, index.select(pattern));
    for (auto& p : some)
      if (std::none_of(out.begin(), out.end(), [&](const eval::Problem& q) { return q.id == p.id; }))
        out.push_back(std::move(p));
  }
  return out;
}

// The problems the arguments name (every one when none), or an error printed on `out`.
std::optional<std::vector<eval::Problem>> selected(const Args& args, const eval::ProblemIndex& index, Printer& out) {
  auto problems = args.positional.empty() ? index.list() : select(index, args.positional);
  if (!problems) {
    out.failed("loading problems", problems.error().message);
    return std::nullopt;
  }
  return std::move(problems).value();
}

int list(const Args& args) {
  const auto index = problem_index(args.get("problems"));
  Printer out;
  auto problems = selected(args, index, out);
  if (!problems) return 1;
  // Columns as wide as the longest id and name, so that no name runs into its title.
  size_t id_width = 14, name_width = 26;
  for (const auto& p : *problems) {
    id_width = std::max(id_width, p.id.size() + 1);
    name_width = std::max(name_width, p.name.size() + 2);
  }
  for (const auto& p : *problems) {
    std::string id = p.id, name = p.name;
    id.resize(id_width, ' ');
    name.resize(name_width, ' ');
    out.line(id + name + p.title);
  }
  out.line(std::to_string(problems->size()) + " problems in " + index.root());
  return 0;
}

// The hidden shapes each problem's rules draw (eval/problems/hidden_shapes.h),
// checked; problems whose spec says no dim may vary, with why; problems whose
// spec says nothing. Exit 1 when a rule draws an invalid shape.
int hidden(const Args& args) {
  const auto index = problem_index(args.get("problems"));
  Printer out;
  auto problems = selected(args, index, out);
  if (!problems) return 1;
  auto count = args.integer("shapes", 3, 1, 100);
  auto seed = args.integer("seed", 1, 0, INT64_MAX);
  if (!count || !seed) {
    out.failed("refinery problems hidden", (!count ? count.error() : seed.error()).message);
    return 2;
  }
  const std::string size = args.get("size", "full");
  int varying = 0, fixed = 0, silent = 0, invalid = 0;
  for (const auto& p : *problems) {
    if (!p.hidden.varies()) {
      ++(p.hidden.declared ? fixed : silent);
      out.line(p.id + "  " + (p.hidden.declared ? "fixed: " + p.hidden.fixed : "no hidden_shapes rules"));
      continue;
    }
    auto shapes = eval::draw_hidden_shapes(p, size, static_cast<int>(*count), static_cast<uint64_t>(*seed));
    if (!shapes) {
      ++invalid;
      out.failed(p.id, shapes.error().message);
      continue;
    }
    std::vector<std::string> drawn;
    std::string problem;
    for (const auto& d : *shapes) {
      if (auto why = eval::hidden_shape_problem(p, size, d))
        problem = eval::describe_hidden_shape(p, size, d) + ": " + *why;
      drawn.push_back(eval::describe_hidden_shape(p, size, d));
    }
    if (!problem.empty()) {
      ++invalid;
      out.failed(p.id, problem);
      continue;
    }
    ++varying;
    out.line(p.id + "  " + base::join(drawn, "; "));
  }
  out.line(std::to_string(varying) + " problems vary, " + std::to_string(fixed) + " are fixed, " +
           std::to_string(silent) + " have no rules, " + std::to_string(invalid) + " have rules that fail (size " +
           size + ")");
  return invalid ? 1 : 0;
}

int show(const Args& args) {
  if (args.positional.size() != 1) {
    std::fprintf(stderr, "usage: refinery problems show ID\n");
    return 2;
  }
  auto p = problem_index(args.get("problems")).find(args.positional[0]);
  if (!p) {
    std::fprintf(stderr, "refinery problems show: %s\n", p.error().message.c_str());
    return 1;
  }
  const std::string size = args.get("size", "full");
  if (args.has("json")) {
    // What forward receives at that size, one entry per tensor or scalar (a
    // weight list's entries each with their own name): for tools that check
    // a problem's other references against its spec.
    auto resolved = eval::resolve_inputs(*p, size);
    if (!resolved) {
      std::fprintf(stderr, "refinery problems show: %s\n", resolved.error().message.c_str());
      return 1;
    }
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& in : *resolved) {
      nlohmann::json j = {{"name", in.entry.empty() ? in.name : in.entry},
                          {"weight", in.is_weight},
                          {"dtype", eval::to_string(in.dtype)}};
      if (!in.list.empty()) j["list"] = in.list;
      if (!in.is_scalar) {
        j["draw"] = {{"kind", eval::to_string(in.draw.kind)}, {"a", in.draw.a}, {"b", in.draw.b}};
        if (!in.then.empty()) j["then"] = in.then;
      }
      if (in.is_scalar)
        j["scalar"] = in.scalar_value;
      else
        j["shape"] = in.shape;
      inputs.push_back(j);
    }
    nlohmann::json dims = nlohmann::json::object();
    for (const auto& [name, value] : *p->size(size)) dims[name] = value;
    std::printf(
        "%s\n",
        nlohmann::json{
            {"problem", p->id}, {"name", p->name}, {"size", size}, {"dims", dims}, {"inputs", inputs}, {"dir", p->dir}}
            .dump(2)
            .c_str());
    return 0;
  }
  auto spec = base::read_file(p->spec_path);
  auto ref = base::read_file(p->reference_path);
  Printer out;
  out.line(out.bold(p->id + " " + p->name) + "  (" + p->dir + ")");
  out.line("forward(" + eval::forward_parameters(*p) + ")");
  // Weight lists as the prompt shows them, at the size asked for (full by default).
  for (const auto& in : p->inputs)
    if (in.is_list && p->size(size)) out.line("\nsize " + size + ": " + eval::describe_list(in, *p->size(size)));
  out.line("\n# " + p->spec_path + "\n" + (spec ? *spec : spec.error().message));
  out.line("// " + p->reference_path + "\n" + (ref ? *ref : ref.error().message));
  return 0;
}

// Evaluations of problems 0..n-1, taken in order: on cpu without timing
// (nothing to disturb) one per core at a time, else one at a time.
class InOrder {
 public:
  using Evaluate = std::function<base::Result<eval::Outcome>(size_t)>;
  InOrder(size_t n, const eval::EvalSettings& settings, Evaluate evaluate)
      : promised_(n), evaluate_(std::move(evaluate)) {
    for (auto& p : promised_) outcomes_.push_back(p.get_future());
    const bool side_by_side = settings.backend == eval::Backend::cpu && !settings.timing.enabled;
    const size_t lanes = side_by_side ? std::max(1u, std::thread::hardware_concurrency()) : 1;
    for (size_t w = 0; w < lanes; ++w)
      workers_.emplace_back([this] {
        for (size_t i; (i = next_++) < promised_.size();) promised_[i].set_value(evaluate_(i));
      });
  }
  base::Result<eval::Outcome> get(size_t i) { return outcomes_[i].get(); }

 private:
  std::vector<std::promise<base::Result<eval::Outcome>>> promised_;
  std::vector<std::future<base::Result<eval::Outcome>>> outcomes_;
  Evaluate evaluate_;
  std::atomic<size_t> next_{0};
  std::vector<std::jthread> workers_;  // last: joined before the rest goes
};

// `problems check --python`: each problem's reference.py, as a Python
// candidate (ModelNew = Model), against its C++ reference through the judge:
// the same weights and inputs, the problem's tolerance. What a Python
// candidate is built and bound with (reference.py's constructor and WEIGHTS)
// is checked with it.
int check_python(const Args& args, Context& ctx, const std::vector<eval::Problem>& problems) {
  eval::EvalSettings settings = ctx.settings;
  settings.language = eval::LanguageId::python;
  (void)eval::apply_policy(settings.static_checks, "off");  // the project's own code
  InOrder outcomes(problems.size(), settings, [&](size_t i) -> base::Result<eval::Outcome> {
    const eval::Problem& p = problems[i];
    if (p.python_reference_path.empty()) return base::Error{p.id + " has no reference.py"};
    TRY_ASSIGN(std::string text, base::read_file(p.python_reference_path));
    return ctx.evaluator->evaluate(p, text + "\n\nModelNew = Model\n", settings);
  });
  Printer out;
  int failures = 0;
  nlohmann::json results = nlohmann::json::array();
  for (size_t i = 0; i < problems.size(); ++i) {
    const auto& p = problems[i];
    auto outcome = outcomes.get(i);
    const std::string label = p.id + " " + p.name;
    const bool ok = outcome && outcome->status == eval::Status::correct;
    failures += !ok;
    if (args.has("json")) {
      nlohmann::json j = outcome ? eval::summary_json(*outcome) : nlohmann::json{{"message", outcome.error().message}};
      j["problem"] = p.id;
      j["ok"] = ok;
      results.push_back(j);
    } else if (!outcome) {
      out.failed(label, outcome.error().message);
    } else if (!ok) {
      out.failed(label, format_outcome(*outcome, out));
    } else {
      char line[256];
      std::snprintf(line, sizeof line, "%-34s  ok   reference.py agrees with reference.cpp", label.c_str());
      out.line(line);
    }
  }
  if (args.has("json"))
    std::printf("%s\n", results.dump(2).c_str());
  else
    out.line(std::to_string(problems.size() - failures) + " of " + std::to_string(problems.size()) +
             " Python references agree with their C++ references (" + eval::to_string(settings.backend) + ", size " +
             eval::to_string(settings.size) + ")");
  return failures ? 1 : 0;
}

int check(const Args& args) {
  std::vector<std::string> notes;
  auto settings = eval_settings_from_args(args, &notes);
  for (const auto& note : notes) std::fprintf(stderr, "refinery problems check: %s\n", note.c_str());
  if (!settings) {
    std::fprintf(stderr, "refinery problems check: %s\n", settings.error().message.c_str());
    return base::exit_code(settings.error());
  }
  settings->remeasure = 0;  // a reference against itself: its timing is shown, not judged
  auto ctx_or = make_context(*settings);
  if (!ctx_or) {
    std::fprintf(stderr, "refinery problems check: %s\n", ctx_or.error().message.c_str());
    return base::exit_code(ctx_or.error());
  }
  Context& ctx = **ctx_or;
  std::vector<eval::Problem> problems;
  if (args.positional.empty()) {
    auto all = ctx.problems->list();
    if (!all) {
      std::fprintf(stderr, "refinery problems check: %s\n", all.error().message.c_str());
      return 1;
    }
    problems = std::move(all).value();
  } else {
    auto some = select(*ctx.problems, args.positional);
    if (!some) {
      std::fprintf(stderr, "refinery problems check: %s\n", some.error().message.c_str());
      return 1;
    }
    problems = std::move(some).value();
  }
  if (args.has("python")) return check_python(args, ctx, problems);
  // References compile before any is checked, so that compiles never share
  // the cores a reference is being timed on: in batches (compile_batch: one
  // read of LibTorch's headers per batch), two at a time, or one by one with
  // --no-batch. A reference that fails comes again, with its own log, when it
  // is evaluated below.
  std::vector<std::optional<eval::CompiledLibrary>> libraries(problems.size());
  std::vector<double> compile_s(problems.size(), 0.0);
  const size_t batch = args.has("no-batch") || problems.size() < 2 ? 1 : kReferenceBatch;
  std::vector<std::future<void>> batches;
  for (size_t first = 0; first < problems.size(); first += batch)
    batches.push_back(std::async(std::launch::async, [&, first] {
      const size_t last = std::min(problems.size(), first + batch);
      std::vector<eval::Problem> some(problems.begin() + first, problems.begin() + last);
      auto built = batch > 1 ? ctx.evaluator->compile_references(some, ctx.settings)
                             : base::Result<std::vector<eval::CompiledLibrary>>(base::Error{"one by one"});
      for (size_t i = first; i < last; ++i) {
        if (built && (*built)[i - first].ok)
          libraries[i] = (*built)[i - first];
        else if (auto one = ctx.evaluator->compile_reference(problems[i], ctx.settings))
          libraries[i] = *one;
        if (libraries[i] && !libraries[i]->cached) compile_s[i] = libraries[i]->seconds;
      }
    }));
  for (auto& b : batches) b.get();
  InOrder outcomes(problems.size(), ctx.settings, [&](size_t i) {
    return ctx.evaluator->evaluate_reference(problems[i], ctx.settings,
                                             libraries[i] && libraries[i]->ok ? &*libraries[i] : nullptr);
  });
  Printer out;
  int failures = 0, audited_clean = 0, audited_flagged = 0;
  nlohmann::json results = nlohmann::json::array();
  for (size_t i = 0; i < problems.size(); ++i) {
    const auto& p = problems[i];
    // The reference against itself: same inputs, two runs, which must agree.
    auto outcome = outcomes.get(i);
    std::string label = p.id + " " + p.name;
    if (!outcome) {
      ++failures;
      if (args.has("json"))
        results.push_back({{"problem", p.id}, {"ok", false}, {"message", outcome.error().message}});
      else
        out.failed(label, outcome.error().message);
      continue;
    }
    bool ok = outcome->status == eval::Status::correct;
    failures += !ok;
    // The audit: would a kernel that skips the work pass? (audit.h)
    std::vector<std::string> findings;
    std::string audit_note;
    if (ok && args.has("audit")) {
      auto found = audit_reference(*ctx.evaluator, p, ctx.settings);
      if (!found) {
        ++failures;
        ok = false;
        audit_note = found.error().message;
      } else {
        findings = std::move(found).value();
        auto marked = ctx.problems->select("set:degenerate");
        const bool in_set =
            marked && std::any_of(marked->begin(), marked->end(), [&](const eval::Problem& q) { return q.id == p.id; });
        ++(findings.empty() ? audited_clean : audited_flagged);
        if (!findings.empty())
          audit_note =
              "audit: " + base::join(findings, "; ") + (in_set ? " (in set:degenerate)" : " (NOT in set:degenerate)");
      }
    }
    if (args.has("json")) {
      nlohmann::json j = eval::summary_json(*outcome);
      j["problem"] = p.id;
      j["ok"] = ok;
      if (args.has("audit")) j["audit"] = findings;
      if (!audit_note.empty() && findings.empty()) j["message"] = audit_note;
      results.push_back(j);
      continue;
    }
    if (!ok && !audit_note.empty()) {
      out.failed(label, audit_note);
      continue;
    }
    if (!ok) {
      out.failed(label, format_outcome(*outcome, out));
      continue;
    }
    char line[256];
    if (const auto& t = outcome->timing)
      std::snprintf(line, sizeof line, "%-34s  ok   reference %s median (spread %.1f%%, %d trials), run twice agrees",
                    label.c_str(), base::format_ms(t->reference.median_ms).c_str(), 100 * t->reference.spread(),
                    t->reference.trials);
    else  // --no-timing
      std::snprintf(line, sizeof line, "%-34s  ok   run twice agrees", label.c_str());
    out.line(std::string(line) + (compile_s[i] > 1 ? ", compile " + base::format_ms(compile_s[i] * 1000) : ""));
    if (!audit_note.empty()) out.line("    " + audit_note);
    if (!outcome->precision_note.empty()) out.line("    " + outcome->precision_note);
  }
  if (args.has("audit") && !args.has("json"))
    out.line("audit: " + std::to_string(audited_flagged) + " flagged, " + std::to_string(audited_clean) + " clean");
  if (args.has("json"))
    std::printf("%s\n", results.dump(2).c_str());
  else
    out.line(std::to_string(problems.size() - failures) + " of " + std::to_string(problems.size()) + " problems ok (" +
             eval::to_string(ctx.settings.backend) + ", size " + eval::to_string(ctx.settings.size) + ")");
  return failures ? 1 : 0;
}

}  // namespace

int cmd_problems(const std::vector<std::string>& argv) {
  const char* usage =
      "usage: refinery problems list [ID...]\n"
      "       refinery problems show ID [--size small|full] [--json]\n"
      "       refinery problems check [ID...] [--backend cpu|cuda] [--size small|full] [--audit | --python] [flags]\n"
      "       refinery problems hidden [ID...] [--size small|full] [--shapes N] [--seed S]\n"
      "ID: level1/19, a name, a folder, a range of one level (level1/1-40) or a set (set:quick)\n";
  if (argv.empty()) {
    std::fprintf(stderr, "%s", usage);
    return 2;
  }
  if (argv[0] == "--help" || argv[0] == "-h") {
    std::printf("%s", usage);
    return 0;
  }
  std::vector<std::string> rest(argv.begin() + 1, argv.end());
  std::vector<FlagSpec> flags = eval_flags();
  flags.push_back({"audit", false, "check: also run the reference audit (would a kernel that skips the work pass?)"});
  flags.push_back({"no-batch", false, "check: compile each reference alone, not in batches"});
  flags.push_back({"python", false, "check: each reference.py, as a Python candidate, against its reference.cpp"});
  flags.push_back({"shapes", true, "hidden: how many hidden shapes to draw per problem (default 3)"});
  auto args = parse_args(rest, flags);
  if (!args) {
    std::fprintf(stderr, "refinery problems: %s\n%s", args.error().message.c_str(), usage);
    return 2;
  }
  if (argv[0] == "list") return list(*args);
  if (argv[0] == "show") return show(*args);
  if (argv[0] == "check") return check(*args);
  if (argv[0] == "hidden") return hidden(*args);
  std::fprintf(stderr, "refinery problems: unknown subcommand '%s'\n%s", argv[0].c_str(), usage);
  return 2;
}

}  // namespace agent
