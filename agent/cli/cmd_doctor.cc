// refinery doctor [--backend cpu|cuda] [--cache-dir DIR]: what this machine
// grants the runner's sandbox and the compilers'. It evaluates one reference
// against itself (level1/19 at its small size), the way every candidate
// runs: checked, then timed against itself, so that the speedup it prints
// says how far this machine's timing can be trusted (1.00x within the
// timing's uncertainty or 2%, else a warning; --no-timing leaves it out). It
// prints each layer of the runner's sandbox that
// applied and each that the platform refused, and the layers that protect
// the machine rather than the verdict (the runner's memory cgroup, its
// oom_score_adj) where they did not apply; then runs the C++ compiler in the
// compilers' sandbox and says the same of it (its layers, and whether each
// compile step gets a memory cgroup, and why not). Exit code 0 when verdicts
// here are trusted, 1 when a layer of either is missing
// (eval.allow_untrusted / --allow-untrusted runs anyway), 2 for a usage error.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "agent/cli/commands.h"
#include "agent/cli/context.h"
#include "agent/cli/printer.h"
#include "base/text.h"

namespace agent {

int cmd_doctor(const std::vector<std::string>& argv) {
  auto args = parse_args(argv, eval_flags());
  if (!args) {
    std::fprintf(stderr, "refinery doctor: %s\nusage: refinery doctor [--backend cpu|cuda] [flags]\n%s",
                 args.error().message.c_str(), flags_help(eval_flags()).c_str());
    return 2;
  }
  std::vector<std::string> notes;
  auto settings = eval_settings_from_args(*args, &notes);
  for (const auto& note : notes) std::fprintf(stderr, "refinery doctor: %s\n", note.c_str());
  if (!settings) {
    std::fprintf(stderr, "refinery doctor: %s\n", settings.error().message.c_str());
    return base::exit_code(settings.error());
  }
  if (!settings->asked.size) settings->asked.size = eval::Size::small;
  settings->allow_untrusted = true;  // to see what is missing rather than stop at it
  auto ctx_or = make_context(*settings);
  if (!ctx_or) {
    std::fprintf(stderr, "refinery doctor: %s\n", ctx_or.error().message.c_str());
    return base::exit_code(ctx_or.error());
  }
  Context& ctx = **ctx_or;
  ctx.settings.trials = 1;
  ctx.settings.remeasure = 0;  // the first timing is the figure: a noisy machine shows as one
  auto problem = ctx.problems->find("level1/19");
  Printer out;
  if (!problem) {
    out.failed("refinery doctor", problem.error().message);
    return 1;
  }
  auto o = ctx.evaluator->evaluate_reference(*problem, ctx.settings);
  if (!o) {
    out.failed("refinery doctor", o.error().message);
    return 1;
  }
  out.line("refinery doctor: the runner's sandbox on this machine (" + ctx.hardware + ", " +
           eval::to_string(ctx.settings.backend) + " backend)");
  const nlohmann::json& s = o->sandbox;
  auto yes = [&](const char* key) { return s.value(key, false) ? "yes" : "NO"; };
  auto row = [&](const std::string& what, const std::string& value) {
    std::string w = what;
    w.resize(std::max<size_t>(w.size(), 22), ' ');
    out.line("  " + w + value);
  };
  row("user namespace", std::string(s.value("user_namespace", false) ? "yes" : "no (not needed as root)"));
  row("pid namespace", yes("pid_namespace"));
  row("mount namespace", std::string(yes("mount_namespace")) + " (a private, read-only root)");
  row("network namespace", yes("network_namespace"));
  row("ipc namespace", yes("ipc_namespace"));
  row("unprivileged", std::string(yes("unprivileged")) + " (uid " + std::to_string(s.value("uid", 0u)) + ")");
  row("no_new_privs", yes("no_new_privs"));
  row("syscall filter", yes("seccomp"));
  row("memory cgroup",
      s.value("memory_cgroup", false)
          ? "yes (the runner's memory capped at " + base::format_bytes(s.value("memory_cap_bytes", 0.0)) + ")"
          : std::string("NO (memory a candidate holds in memfd, tmpfs or SysV shared memory is uncapped)"));
  row("oom_score_adj", std::to_string(s.value("oom_score_adj", 0)) + " (1000: the OOM killer takes the runner first)");
  row("evaluation",
      eval::to_string(o->status) + (o->status == eval::Status::correct || o->message.empty() ? "" : ": " + o->message));
  // The reference against itself: its speedup is 1.00x but for the noise of
  // this machine's timing, which every speedup measured here carries too.
  bool timing_off = false;
  if (o->timing) {
    const eval::Timing& t = *o->timing;
    const double off = std::abs(t.speedup - 1.0), known = std::max(t.uncertainty(), 0.02);
    timing_off = off > known;
    char figure[96];
    std::snprintf(figure, sizeof figure, "%.3fx against itself (uncertainty %.2f%%, ", t.speedup,
                  100 * t.uncertainty());
    row("timing", figure + std::to_string(t.candidate.trials) + " trials, " + t.clock + ")" +
                      (timing_off ? ": NOT within its uncertainty or 2% of 1.00x; this machine's timings are noisy "
                                    "(another process on its cores or GPU?)"
                                  : ""));
  }
  if (s.contains("degraded"))
    for (const auto& d : s["degraded"]) out.line("  degraded: " + d.get<std::string>());
  auto compile = ctx.compiler->probe_sandbox();
  if (!compile) compile = eval::CompileService::SandboxProbe{{compile.error().message}, 0, compile.error().message};
  row("compilers' sandbox",
      compile->missing.empty() ? "yes (namespaces, a root of the toolchain only, unprivileged, capped)" : "NO");
  // Like the runner's: it protects the machine, not the verdict.
  row("compilers' cgroup", compile->memory_cgroup_bytes
                               ? "yes (each compile step's memory capped at " +
                                     base::format_bytes(static_cast<double>(compile->memory_cgroup_bytes)) + ")"
                               : std::string("NO (memory a compile step holds in memfd, tmpfs or SysV shared memory "
                                             "is uncapped; each process keeps its own cap)"));
  if (!compile->memory_cgroup_bytes)
    out.line("  degraded (compilers): memory cgroup: " + compile->no_memory_cgroup_because);
  bool trusted = true;
  if (s.contains("missing") && !s["missing"].empty()) {
    for (const auto& m : s["missing"]) out.line("  missing: " + m.get<std::string>());
    trusted = false;
  }
  for (const auto& m : compile->missing) out.line("  missing (compilers): " + m);
  if (!trusted || !compile->missing.empty()) {
    out.line("verdicts here are NOT trusted; eval.allow_untrusted: true (or --allow-untrusted) runs anyway");
    return 1;
  }
  if (o->status != eval::Status::correct) return 1;
  out.line((s.contains("degraded") && !s["degraded"].empty()) || !compile->memory_cgroup_bytes
               ? "verdicts here are trusted, but a candidate can exhaust this machine's memory (see degraded)"
               : "every layer applied: verdicts here are trusted");
  if (timing_off) out.line("but speedups measured here carry the noise the timing line shows");
  return 0;
}

}  // namespace agent
