// refinery eval --problem ID --candidate FILE [flags]
#include <filesystem>

#include "agent/cli/commands.h"
#include "agent/cli/context.h"
#include "agent/cli/format.h"
#include "agent/cli/printer.h"
#include "base/fs.h"
#include "base/text.h"
#include "profiler/summary.h"

namespace agent {

int cmd_eval(const std::vector<std::string>& argv) {
  std::vector<FlagSpec> flags = {{"problem", true, "problem id, folder or name (level1/19, relu)"},
                                 {"candidate", true, "the candidate source file"}};
  for (const auto& f : eval_flags()) flags.push_back(f);
  Printer err(stderr);
  auto usage = [&](const std::string& message) {
    err.line("refinery eval: " + message);
    err.line("usage: refinery eval --problem ID --candidate FILE [flags]\n" + flags_help(flags));
    return 2;
  };
  auto args = parse_args(argv, flags);
  if (!args) return usage(args.error().message);
  if (!args->positional.empty()) return usage("unexpected argument '" + args->positional[0] + "'");
  if (!args->has("problem")) return usage("--problem is required");
  if (!args->has("candidate")) return usage("--candidate is required");
  // Usage errors get the usage text (exit 2); the rest could not be done (exit 1).
  auto fail = [&](const base::Error& e) {
    if (e.kind == base::ErrorKind::usage) return usage(e.message);
    err.line("refinery eval: " + e.message);
    return base::exit_code(e);
  };
  auto source = base::read_file(args->get("candidate"));
  if (!source) return fail(source.error());
  std::vector<std::string> notes;
  auto settings = eval_settings_from_args(*args, &notes);
  for (const auto& note : notes) std::fprintf(stderr, "refinery eval: %s\n", note.c_str());
  if (!settings) return fail(settings.error());
  auto problem = problem_index(settings->problems_dir).find(args->get("problem"));
  if (!problem) return fail(problem.error());
  // A .py candidate is a Python module (ModelNew); any other file is the backend's C++ or CUDA.
  if (base::ends_with(args->get("candidate"), ".py")) settings->language = eval::LanguageId::python;
  // One evaluation: no job follows for a standby judge to serve (--standby on still asks for one).
  if (settings->launch.standby == eval::Standby::automatic) settings->launch.standby = eval::Standby::off;
  auto ctx = make_context(*settings);
  if (!ctx) return fail(ctx.error());
  if (!problem->size((*ctx)->settings.size))
    return fail(
        base::Error{"problem " + problem->id + " has no size '" + eval::to_string((*ctx)->settings.size) + "'"});

  auto outcome = (*ctx)->evaluator->evaluate(*problem, *source, (*ctx)->settings);
  if (!outcome) {
    err.failed("evaluation of " + args->get("candidate") + " on " + problem->id, outcome.error().message);
    return 1;
  }
  if (args->has("json")) {
    std::printf("%s\n", eval::summary_json(*outcome).dump(2).c_str());
    return 0;
  }
  Printer out;
  out.line(out.bold(problem->id + " " + problem->name) + " (" + eval::to_string((*ctx)->settings.size) + ", " +
           eval::to_string((*ctx)->settings.backend) + "), candidate " + args->get("candidate"));
  std::printf("%s", format_outcome(*outcome, out).c_str());
  if (outcome->profile) {
    // The section a model reads with profile feedback, and what profiling cost.
    std::string section = profiler::summarize(*outcome->profile);
    if (!section.empty() && section.back() != '\n') section += '\n';
    std::printf("\n%s", section.c_str());
    std::printf("(profiling added %s)\n", base::format_ms(outcome->profile->overhead_ms).c_str());
  } else if ((*ctx)->settings.profile.tool != eval::Profiler::none && outcome->status == eval::Status::correct &&
             (*ctx)->settings.backend != eval::Backend::cuda) {
    std::printf("\nno profile: profiling needs the cuda backend\n");
  }
  return 0;
}

}  // namespace agent
