#include "agent/report/run_report.h"

#include <cstdio>
#include <map>
#include <set>

#include "agent/report/report.h"

namespace agent {
using nlohmann::json;

json campaign_report(const Config& config, const std::vector<std::string>& problems,
                     const std::vector<Attempt>& attempts, const std::vector<std::string>& left_out,
                     const std::vector<std::string>& leave_out_patterns, const std::set<std::string>& accepted) {
  const std::set<std::string> out_set(left_out.begin(), left_out.end());
  std::vector<std::string> counted;  // the denominator of fast_p
  for (const auto& p : problems)
    if (!out_set.count(p)) counted.push_back(p);
  json arms = json::array();
  std::set<std::string> backends;  // where the attempts were timed
  std::set<std::string> modes;     // how they were evaluated (eval.compat); records before modes have none
  for (const auto& m : config.models) {
    for (const auto& s : config.strategies) {
      std::vector<AttemptSummary> summaries;
      std::map<std::string, int> by_status;
      int64_t input = 0, cached = 0, output = 0, reasoning = 0;
      double cost = 0;
      int unstable = 0, usage_invalid = 0, accepted_count = 0, library_only = 0;
      json quarantined = json::array();
      for (const auto& a : attempts) {
        if (a.key.model != m.name || a.key.strategy != s.name) continue;
        ++by_status[a.status.empty() ? "?" : a.status];
        const bool correct = a.correct() && a.speedup.has_value();  // correct and timed
        const bool marked = correct && a.unstable;
        unstable += marked;
        const bool held = correct && !a.quarantine.empty() && !accepted.count(a.key.str());
        accepted_count += correct && !a.quarantine.empty() && !held;
        if (held) quarantined.push_back({{"key", a.key.str()}, {"speedup", *a.speedup}, {"reason", a.quarantine}});
        library_only += correct && a.library_only;
        summaries.push_back({a.key.problem, a.key.sample, a.key.turn, correct, correct ? *a.speedup : 0.0, marked, held,
                             correct && a.library_only});
        if (a.evaluated) backends.insert(a.backend);
        if (a.evaluated && !a.mode.empty()) modes.insert(a.mode);
        usage_invalid += !a.usage.invalid.empty();
        input += a.usage.input_tokens;
        cached += a.usage.cached_input_tokens;
        output += a.usage.output_tokens;
        reasoning += a.usage.reasoning_tokens;
        cost += a.cost_usd;
      }
      json turns = json::array();
      for (const auto& f : compute_turns(summaries, counted, s.samples, s.turns, config.thresholds, config.count_unstable)) {
        json fast = json::object(), fast_k = json::object();
        for (size_t i = 0; i < config.thresholds.size(); ++i) {
          char key[32];
          std::snprintf(key, sizeof key, "%g", config.thresholds[i]);
          fast[key] = f.fast_p[i];
          fast_k[key] = f.fast_p_at_k[i];
        }
        turns.push_back({{"turn", f.turn}, {"fast_p", fast}, {"fast_p_at_k", fast_k}, {"correct_rate", f.correct_rate},
                         {"geomean_speedup", f.geomean_speedup}, {"chains_with_correct", f.chains_with_correct}});
      }
      arms.push_back({{"model", m.name}, {"strategy", s.name}, {"samples", s.samples}, {"turns", turns},
                      {"attempts", summaries.size()}, {"attempts_by_status", by_status},
                      {"tokens", {{"input", input}, {"cached_input", cached}, {"output", output}, {"reasoning", reasoning}}},
                      {"cost_usd", cost}, {"unstable_attempts", unstable},
                      {"unstable_counted", config.count_unstable}, {"usage_invalid", usage_invalid}});
      // Only campaigns that quarantined something say so: older reports read as they did.
      if (!quarantined.empty()) arms.back()["quarantined"] = quarantined;
      if (accepted_count > 0) arms.back()["quarantine_accepted"] = accepted_count;
      if (library_only > 0) arms.back()["library_only"] = library_only;
    }
  }
  json report = {{"config", config.name}, {"problems", problems.size()}, {"thresholds", config.thresholds},
                 {"backends", backends}, {"arms", arms}};
  // Which device gave each verdict, and which were retired (eval/device_pool.h);
  // records written before devices say none, and their reports read as they did.
  std::map<int, int> per_device;
  json retired = json::array();
  for (const auto& a : attempts) {
    if (a.device) ++per_device[*a.device];
    for (const auto& r : a.devices_retired)
      retired.push_back({{"device", r.device}, {"reason", r.reason}, {"key", a.key.str()}});
  }
  if (!per_device.empty() || !retired.empty()) {
    json counts = json::object();
    for (const auto& [d, n] : per_device) counts[std::to_string(d)] = n;
    report["devices"] = {{"attempts", counts}, {"retired", retired}};
  }
  // Records written before modes say none: their reports read as they did.
  if (!modes.empty()) report["modes"] = modes;
  if (!leave_out_patterns.empty()) {
    std::vector<std::string> listed;
    for (const auto& p : problems)
      if (out_set.count(p)) listed.push_back(p);
    report["left_out"] = {{"patterns", leave_out_patterns}, {"problems", listed}};
  }
  return report;
}

std::string format_report(const json& report) {
  std::string out;
  char buf[512];
  if (report.contains("backends")) {
    for (const auto& b : report["backends"])
      if (b == "cpu")
        out += "timings: cpu backend (host clock on this machine's CPU; these speedups are not GPU speedups)\n";
  }
  if (report.contains("modes"))
    for (const auto& m : report["modes"])
      out += m == "kernelbench" ? "mode: kernelbench (KernelBench v0.1: U[0,1) inputs, atol = rtol = 1e-2, TF32 in cuDNN, "
                                  "no cache flush between timed calls)\n"
                                : "mode: refinery\n";
  if (report.contains("left_out")) {
    const auto& lo = report["left_out"];
    std::vector<std::string> patterns = lo["patterns"].get<std::vector<std::string>>();
    std::vector<std::string> ids = lo["problems"].get<std::vector<std::string>>();
    std::string joined_patterns, joined_ids;
    for (const auto& p : patterns) joined_patterns += (joined_patterns.empty() ? "" : ", ") + p;
    for (const auto& p : ids) joined_ids += (joined_ids.empty() ? "" : ", ") + p;
    out += "left out of fast_p, the correct rate and the geomean (" + joined_patterns + "): " +
           std::to_string(ids.size()) + " of " + std::to_string(report["problems"].get<size_t>()) + " problems" +
           (ids.empty() ? "" : ": " + joined_ids) + "\n";
  }
  if (report.contains("devices")) {
    const auto& d = report["devices"];
    std::string line = "devices:";
    for (auto it = d["attempts"].begin(); it != d["attempts"].end(); ++it)
      line += " " + it.key() + " (" + std::to_string(it.value().get<int>()) + " attempts)";
    for (const auto& r : d["retired"])
      line += "; device " + std::to_string(r["device"].get<int>()) + " retired after " + r["key"].get<std::string>() +
              ": " + r["reason"].get<std::string>();
    out += line + "\n";
  }
  for (const auto& arm : report["arms"]) {
    std::snprintf(buf, sizeof buf, "%s x %s: %zu problems x %d samples, %d attempts, %lld tokens, $%.4f\n",
                  arm["model"].get<std::string>().c_str(), arm["strategy"].get<std::string>().c_str(),
                  report["problems"].get<size_t>(), arm["samples"].get<int>(), arm["attempts"].get<int>(),
                  static_cast<long long>(arm["tokens"]["input"].get<int64_t>() + arm["tokens"]["output"].get<int64_t>()),
                  arm["cost_usd"].get<double>());
    out += buf;
    std::string header = "  turn  correct  geomean";
    for (const auto& t : report["thresholds"]) {
      std::snprintf(buf, sizeof buf, "  fast_%-4g", t.get<double>());
      header += buf;
    }
    out += header + "\n";
    for (const auto& t : arm["turns"]) {
      std::snprintf(buf, sizeof buf, "  %4d  %6.1f%%  %6.3fx", t["turn"].get<int>(), 100 * t["correct_rate"].get<double>(),
                    t["geomean_speedup"].get<double>());
      std::string row = buf;
      for (const auto& th : report["thresholds"]) {
        char key[32];
        std::snprintf(key, sizeof key, "%g", th.get<double>());
        std::snprintf(buf, sizeof buf, "  %8.1f%%", 100 * t["fast_p"][key].get<double>());
        row += buf;
      }
      out += row + "\n";
    }
    std::string statuses;
    for (auto it = arm["attempts_by_status"].begin(); it != arm["attempts_by_status"].end(); ++it)
      statuses += (statuses.empty() ? "" : ", ") + it.key() + " " + std::to_string(it.value().get<int>());
    out += "  attempts: " + statuses + "\n";
    if (const int n = arm.value("unstable_attempts", 0); n > 0)
      out += "  unstable timings: " + std::to_string(n) + " correct attempt" + (n == 1 ? "" : "s") +
             (arm.value("unstable_counted", false) ? ", counted in fast_p and the geomean (report.count_unstable)\n"
                                                   : " left out of fast_p for p > 0 and of the geomean\n");
    if (arm.contains("quarantined")) {
      const size_t n = arm["quarantined"].size();
      out += "  quarantined: " + std::to_string(n) + " correct attempt" + (n == 1 ? "" : "s") +
             " whose speedup waits for `refinery accept RUN KEY`, left out of fast_p for p > 0 and of the geomean\n";
      for (const auto& q : arm["quarantined"]) {
        std::snprintf(buf, sizeof buf, "    %s  %.2fx: ", q["key"].get<std::string>().c_str(), q["speedup"].get<double>());
        out += buf + q["reason"].get<std::string>() + "\n";
      }
    }
    if (const int n = arm.value("quarantine_accepted", 0); n > 0)
      out += "  quarantine: " + std::to_string(n) + " speedup" + (n == 1 ? "" : "s") + " accepted by a person (accepted.jsonl)\n";
    if (const int n = arm.value("library_only", 0); n > 0)
      out += "  library only: " + std::to_string(n) + " correct attempt" + (n == 1 ? "" : "s") +
             " that ran no kernel of its own, left out of fast_p for p > 0 and of the geomean (eval.library_only)\n";
    if (const int n = arm.value("usage_invalid", 0); n > 0)
      out += "  usage: " + std::to_string(n) + " response" + (n == 1 ? "" : "s") +
             " reported impossible token counts, counted as 0\n";
  }
  return out;
}

json compare_verdicts(const std::vector<Attempt>& ours, const std::vector<Attempt>& theirs) {
  std::map<std::string, const Attempt*> by_key;
  for (const auto& a : theirs)
    if (a.evaluated) by_key[a.key.str()] = &a;
  json differ = json::array();
  size_t both = 0;
  for (const auto& a : ours) {
    auto it = a.evaluated ? by_key.find(a.key.str()) : by_key.end();
    if (it == by_key.end()) continue;
    ++both;
    const Attempt& b = *it->second;
    if (a.status == b.status) continue;
    auto side = [](const Attempt& x) {
      return json{{"mode", x.mode.empty() ? "refinery" : x.mode}, {"status", x.status}, {"message", x.message}};
    };
    differ.push_back({{"key", a.key.str()}, {"this", side(a)}, {"other", side(b)}});
  }
  return {{"compared", both}, {"differ", differ}};
}

std::string format_comparison(const json& comparison, const std::string& other) {
  std::string out = "verdicts against " + other + ": " + std::to_string(comparison["differ"].size()) + " of " +
                    std::to_string(comparison["compared"].get<size_t>()) + " attempts evaluated in both differ\n";
  for (const auto& d : comparison["differ"]) {
    auto side = [](const json& s) {
      return s["mode"].get<std::string>() + ": " + s["status"].get<std::string>() + " (" + s["message"].get<std::string>() + ")";
    };
    out += "  " + d["key"].get<std::string>() + "\n    " + side(d["this"]) + "\n    " + side(d["other"]) + "\n";
  }
  return out;
}

}  // namespace agent
