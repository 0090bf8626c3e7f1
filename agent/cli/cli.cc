#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "agent/cli/commands.h"
#include "base/text.h"
#include "build_info.h"

namespace agent {
namespace {

struct Subcommand {
  const char* name;
  int (*run)(const std::vector<std::string>&);
  const char* help;
};

int cmd_version(const std::vector<std::string>&) {
  std::printf("refinery %s (LibTorch %s, cuda runtime %s)\n", REFINERY_VERSION, REFINERY_TORCH_VERSION,
              REFINERY_WITH_CUDA ? "yes" : "no");
  return 0;
}

const Subcommand kSubcommands[] = {
    {"accept", cmd_accept, "count a quarantined speedup of a run folder, after a person has checked it"},
    {"audit", cmd_audit,
     "label an attempt (clean, reward_hack, ...) after a person has looked at it, or list those to review"},
    {"compare", cmd_compare, "two arms, paired by problem: fast_p differences and speedup ratios with 95% intervals"},
    {"doctor", cmd_doctor, "what this machine grants the sandbox that runs candidates"},
    {"eval", cmd_eval, "evaluate one candidate file against a problem's reference"},
    {"export", cmd_export, "a run's attempts and per-turn figures as CSV or JSON lines"},
    {"problems", cmd_problems, "list, show and check problems"},
    {"report", cmd_report, "fast_p and the other figures of run folders, per arm and turn (text, JSON, HTML)"},
    {"run", cmd_run, "run (or resume) a campaign from a YAML config"},
    {"slurm", cmd_slurm, "split a campaign over a Slurm job array, and say how its shards stand"},
    {"version", cmd_version, "print the version and what it was built against"},
};

void usage(FILE* out) {
  std::fprintf(out, "usage: refinery COMMAND [ARGS]\n\ncommands:\n");
  for (const auto& s : kSubcommands) std::fprintf(out, "  %-10s %s\n", s.name, s.help);
}

}  // namespace

int run_cli(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  std::string name = argv[1];
  if (name == "help" || name == "--help" || name == "-h") {
    usage(stdout);
    return 0;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  std::vector<std::string> names;
  for (const auto& s : kSubcommands) {
    if (name != s.name) {
      names.push_back(s.name);
      continue;
    }
    // `refinery COMMAND --help`: every command's flag parser stops at it with
    // a usage error, whose text (the command's usage) goes to stdout.
    for (const auto& a : args)
      if (a == "--help" || a == "-h") {
        std::fflush(stderr);
        dup2(STDOUT_FILENO, STDERR_FILENO);
        const int code = s.run({"--help"});
        return code == 2 ? 0 : code;
      }
    return s.run(args);
  }
  std::fprintf(stderr, "refinery: unknown command '%s'", name.c_str());
  if (auto guess = base::closest_match(name, names)) std::fprintf(stderr, " (did you mean '%s'?)", guess->c_str());
  std::fprintf(stderr, "\n");
  usage(stderr);
  return 2;
}

}  // namespace agent
