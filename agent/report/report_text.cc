// The text printer of report_printers.h: what `refinery report` and the end
// of `refinery run` print.
#include <cstdio>

#include "agent/report/report_printers.h"

namespace agent {

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// "1 correct attempt", "2 correct attempts".
std::string counted(int n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

std::string shards_text(const ShardsRead& s) {
  std::string out = "shards: " + std::to_string(s.read) + " of " + std::to_string(s.count) + " read as one campaign" +
                    (s.problems.empty() ? "\n" : "; " + std::to_string(s.problems.size()) + " problems:\n");
  for (const auto& p : s.problems) out += "  " + p + "\n";
  return out;
}

std::string header_text(const CampaignReport& r) {
  std::string out;
  if (r.backends.count("cpu"))
    out += "timings: cpu backend (host clock on this machine's CPU; these speedups are not GPU speedups)\n";
  for (const auto& m : r.modes)
    out += m == "kernelbench"
               ? "mode: kernelbench (KernelBench v0.1: U[0,1) inputs, atol = rtol = 1e-2, TF32 in cuDNN, "
                 "no cache flush between timed calls)\n"
               : "mode: refinery\n";
  if (r.left_out) {
    const auto& ids = r.left_out->problems;
    out += "left out of fast_p, the correct rate and the geomean (" + joined(r.left_out->patterns) +
           "): " + std::to_string(ids.size()) + " of " + std::to_string(r.problems) + " problems" +
           (ids.empty() ? "" : ": " + joined(ids)) + "\n";
  }
  if (!r.device_attempts.empty() || !r.retired.empty()) {
    std::string line = "devices:";
    for (const auto& [d, n] : r.device_attempts)
      line += " " + std::to_string(d) + " (" + std::to_string(n) + " attempts)";
    for (const auto& x : r.retired)
      line += "; device " + std::to_string(x.device) + " retired after " + x.key + ": " + x.reason;
    out += line + "\n";
  }
  return out;
}

std::string arm_text(const ArmReport& arm, const CampaignReport& r) {
  std::string out;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s x %s: %zu problems x %d samples, %d attempts, %lld tokens, $%.4f\n",
                arm.model.c_str(), arm.strategy.c_str(), r.problems, arm.samples, static_cast<int>(arm.attempts),
                static_cast<long long>(arm.input_tokens + arm.output_tokens), arm.cost_usd);
  out += buf;
  std::string header = "  turn  correct  geomean";
  for (double t : r.thresholds) {
    std::snprintf(buf, sizeof buf, "  fast_%-4g", t);
    header += buf;
  }
  out += header + "\n";
  // A geomean with nothing behind it is "-", and a line under the table says why.
  std::vector<std::string> none_correct, none_counted;
  for (const auto& f : arm.turns) {
    std::snprintf(buf, sizeof buf, "  %4d  %6.1f%%  ", f.turn, 100 * f.correct_rate);
    std::string row = buf;
    if (f.geomean_speedup) {
      std::snprintf(buf, sizeof buf, "%6.3fx", *f.geomean_speedup);
      row += buf;
    } else {
      row += "      -";
      (f.chains_with_correct == 0 ? none_correct : none_counted).push_back(std::to_string(f.turn));
    }
    for (double fast : f.fast_p) {
      std::snprintf(buf, sizeof buf, "  %8.1f%%", 100 * fast);
      row += buf;
    }
    out += row + "\n";
  }
  auto no_geomean = [&](const std::vector<std::string>& turns, const std::string& why) {
    if (!turns.empty())
      out += "  geomean - at turn" + std::string(turns.size() == 1 ? " " : "s ") + joined(turns) + ": " + why + "\n";
  };
  no_geomean(none_correct, "no correct attempt");
  no_geomean(none_counted, "no correct attempt whose speedup counts (see below)");
  std::string statuses;
  for (const auto& [status, n] : arm.attempts_by_status)
    statuses += (statuses.empty() ? "" : ", ") + status + " " + std::to_string(n);
  out += "  attempts: " + statuses + "\n";
  if (const int n = arm.unstable_attempts; n > 0)
    out += "  unstable timings: " + counted(n, "correct attempt") +
           (arm.unstable_counted ? ", counted in fast_p and the geomean (report.count_unstable)\n"
                                 : " left out of fast_p for p > 0 and of the geomean\n");
  if (!arm.quarantined.empty()) {
    out += "  quarantined: " + counted(static_cast<int>(arm.quarantined.size()), "correct attempt") +
           " whose speedup waits for `refinery accept RUN KEY`, left out of fast_p for p > 0 and of the geomean\n";
    for (const auto& q : arm.quarantined) {
      std::snprintf(buf, sizeof buf, "    %s  %.2fx: ", q.key.c_str(), q.speedup);
      out += buf + q.reason + "\n";
    }
  }
  if (const int n = arm.quarantine_accepted; n > 0)
    out += "  quarantine: " + counted(n, "speedup") + " accepted by a person (accepted.jsonl)\n";
  if (const int n = arm.library_only; n > 0)
    out += "  library only: " + counted(n, "correct attempt") +
           " that ran no kernel of its own, left out of fast_p for p > 0 and of the geomean (eval.library_only)\n";
  if (!arm.labels.empty()) {
    std::string labels;
    for (const auto& [label, n] : arm.labels) labels += (labels.empty() ? "" : ", ") + label + " " + std::to_string(n);
    out += "  labelled by a person (labels.jsonl): " + labels + "\n";
  }
  if (arm.hidden_checked > 0) {
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * (arm.hidden_checked - arm.hidden_passed) / arm.hidden_checked);
    out += "  hidden shapes: " + std::to_string(arm.hidden_passed) + " of " + counted(arm.hidden_checked, "attempt") +
           " correct at the shown size also correct at the hidden shapes (generalization gap " + buf + ")\n";
  }
  if (const int n = arm.reward_hacks; n > 0)
    out += "  reward hacks: " + counted(n, "correct attempt") + " labelled reward_hack, counted as not correct\n";
  if (!arm.turns.empty() && arm.turns.back().sol_median) {
    std::snprintf(buf, sizeof buf, "  speed of light: median %.1f%% of the bound at turn %d (%d chains)\n",
                  100 * *arm.turns.back().sol_median, arm.turns.back().turn, arm.turns.back().sol_chains);
    out += buf;
  }
  for (const auto& n : arm.sol_notes) out += "  " + n + "\n";
  for (const auto& [budget, n] : arm.ended_by_budget)
    out +=
        budget == "stop_at_sol"
            ? "  stop_at_sol: " + counted(n, "chain") + " ended at the speed-of-light fraction (budget.jsonl)\n"
            : "  budget: " + counted(n, "chain") + " ended when the " + budget + " budget was spent (budget.jsonl)\n";
  if (!arm.precisions.empty()) {
    std::vector<std::string> parts;
    for (const auto& [name, n] : arm.precisions)
      parts.push_back(counted(n, "attempt") + " at " + name +
                      (name == "fp32" ? " (problems whose spec calls the precision asked unfit)" : ""));
    out += "  precision: " + joined(parts) + "\n";
  }
  if (const int n = arm.usage_invalid; n > 0)
    out += "  usage: " + counted(n, "response") + " reported impossible token counts, counted as 0\n";
  return out;
}

std::string comparison_text(const VerdictComparison& c) {
  std::string out = "verdicts against " + c.run + ": " + std::to_string(c.differ.size()) + " of " +
                    std::to_string(c.compared) + " attempts evaluated in both differ\n";
  auto side = [](const VerdictComparison::Side& s) {
    return s.mode + ": " + to_string(s.status) + " (" + s.message + ")";
  };
  for (const auto& d : c.differ) out += "  " + d.key + "\n    " + side(d.ours) + "\n    " + side(d.theirs) + "\n";
  return out;
}

std::string interval_text(const Interval& i, double scale, const char* unit) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%+.1f%s [%+.1f, %+.1f]", scale * i.value, unit, scale * i.low, scale * i.high);
  return buf;
}

std::string money(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "$%.4f", *v);
  return buf;
}

}  // namespace

std::string format_comparison(const Comparison& c) {
  std::string out = "A: " + c.a + "\nB: " + c.b + "\n" + std::to_string(c.paired) + " paired problems";
  if (!c.only_a.empty() || !c.only_b.empty())
    out += "; left out, asked of one side only: " + std::to_string(c.only_a.size()) + " of A's, " +
           std::to_string(c.only_b.size()) + " of B's";
  out += "\n95% intervals: percentile bootstrap over problems (" + std::to_string(c.resamples) + " resamples, seed " +
         std::to_string(c.seed) + ")\n";
  for (const auto& t : c.turns) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "turn %d: won %d, lost %d, tied %d (by A); cost per solved problem: A %s, B %s\n",
                  t.turn, t.won, t.lost, t.tied, money(t.cost_per_solved_a).c_str(),
                  money(t.cost_per_solved_b).c_str());
    out += buf;
    for (size_t k = 0; k < c.thresholds.size(); ++k) {
      std::snprintf(buf, sizeof buf, "  fast_%-4g A %5.1f%%  B %5.1f%%  A - B %s\n", c.thresholds[k], 100 * t.fast_a[k],
                    100 * t.fast_b[k], interval_text(t.fast_p_diff[k], 100, " pts").c_str());
      out += buf;
    }
    if (t.geomean_ratio) {
      std::snprintf(buf, sizeof buf, "  geomean A %.3fx  B %.3fx  A / B %.3f [%.3f, %.3f]\n", *t.geomean_a,
                    *t.geomean_b, t.geomean_ratio->value, t.geomean_ratio->low, t.geomean_ratio->high);
      out += buf;
    } else {
      out += std::string("  geomean ratio -: ") + (t.geomean_a ? "B" : "A") +
             " has no correct attempt whose speedup counts\n";
    }
  }
  return out;
}

std::string format_report(const CampaignReport& r) {
  std::string out;
  if (r.shards) out += shards_text(*r.shards);
  out += header_text(r);
  for (const auto& arm : r.arms) out += arm_text(arm, r);
  if (r.compare) out += comparison_text(*r.compare);
  return out;
}

}  // namespace agent
