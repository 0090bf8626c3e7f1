// The exports of report_printers.h: CSV (RFC 4180: every field that needs it
// quoted, quotes doubled, one header line) and JSON lines, one row per attempt
// and one per arm x turn, with the same columns in both.
#include <cstdio>

#include "agent/report/report_printers.h"

namespace agent {
using Ordered = nlohmann::ordered_json;  // keeps the columns in the order written here

namespace {

std::string csv_field(const Ordered& v) {
  if (v.is_null()) return "";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return v.dump();
  const std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Every row has the same keys, in the same order, as `header` (a row like them).
std::string csv(const std::vector<Ordered>& rows, const Ordered& header) {
  std::string out;
  size_t i = 0;
  for (auto it = header.begin(); it != header.end(); ++it, ++i) out += (i ? "," : "") + csv_field(it.key());
  out += "\n";
  for (const auto& r : rows) {
    i = 0;
    for (auto it = r.begin(); it != r.end(); ++it, ++i) out += (i ? "," : "") + csv_field(it.value());
    out += "\n";
  }
  return out;
}

std::string jsonl(const std::vector<Ordered>& rows) {
  std::string out;
  for (const auto& r : rows) out += r.dump(-1, ' ', false, Ordered::error_handler_t::replace) + "\n";
  return out;
}

Ordered optional_number(const std::optional<double>& v) {
  return v ? Ordered(*v) : Ordered(nullptr);
}

std::vector<Ordered> turn_rows(const CampaignReport& r) {
  std::vector<Ordered> rows;
  for (const auto& arm : r.arms)
    for (const auto& f : arm.turns) {
      Ordered row = {{"model", arm.model},
                     {"strategy", arm.strategy},
                     {"turn", f.turn},
                     {"correct_rate", f.correct_rate},
                     {"geomean_speedup", optional_number(f.geomean_speedup)},
                     {"chains_with_correct", f.chains_with_correct},
                     {"sol_median", optional_number(f.sol_median)},
                     {"sol_chains", f.sol_chains},
                     {"spent_attempts", f.spent_attempts},
                     {"spent_tokens", f.spent_tokens},
                     {"spent_dollars", f.spent_dollars},
                     {"spent_gpu_seconds", f.spent_gpu_seconds}};
      for (size_t i = 0; i < r.thresholds.size(); ++i) {
        char key[48];
        std::snprintf(key, sizeof key, "fast_%g", r.thresholds[i]);
        row[key] = f.fast_p[i];
      }
      for (size_t i = 0; i < r.thresholds.size(); ++i) {
        char key[48];
        std::snprintf(key, sizeof key, "fast_%g_at_k", r.thresholds[i]);
        row[key] = f.fast_p_at_k[i];
      }
      rows.push_back(std::move(row));
    }
  return rows;
}

std::vector<Ordered> attempt_rows_json(const std::vector<AttemptRow>& rows) {
  std::vector<Ordered> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(attempt_json(r));
  return out;
}

}  // namespace

Ordered attempt_json(const AttemptRow& r) {
  return {{"key", r.key},
          {"model", r.model},
          {"strategy", r.strategy},
          {"problem", r.problem},
          {"level", r.level},
          {"sample", r.sample},
          {"turn", r.turn},
          {"parent", r.parent},
          {"status", r.status},
          {"counts", r.counts},
          {"speedup", optional_number(r.speedup)},
          {"candidate_ms", optional_number(r.candidate_ms)},
          {"reference_ms", optional_number(r.reference_ms)},
          {"sol_fraction", optional_number(r.sol_fraction)},
          {"input_tokens", r.input_tokens},
          {"output_tokens", r.output_tokens},
          {"reasoning_tokens", r.reasoning_tokens},
          {"cost_usd", r.cost_usd},
          {"backend", r.backend},
          {"language", r.language},
          {"mode", r.mode},
          {"precision", r.precision},
          {"gpu", r.gpu},
          {"cuda_driver", r.cuda_driver},
          {"cuda_runtime", r.cuda_runtime},
          {"libtorch", r.libtorch},
          {"sm_clock_max_mhz", r.sm_clock_max_mhz},
          {"unstable", r.unstable},
          {"library_only", r.library_only},
          {"quarantine", r.quarantine},
          {"label", r.label},
          {"label_note", r.label_note},
          {"message", r.message},
          {"dir", r.dir},
          {"candidate", r.candidate}};
}

std::string attempts_csv(const std::vector<AttemptRow>& rows) {
  return csv(attempt_rows_json(rows), attempt_json(AttemptRow{}));
}
std::string attempts_jsonl(const std::vector<AttemptRow>& rows) {
  return jsonl(attempt_rows_json(rows));
}
std::string turns_csv(const CampaignReport& report) {
  const auto rows = turn_rows(report);
  CampaignReport one = report;  // the header of a report without arms: one empty arm's turn
  one.arms = {ArmReport{}};
  one.arms[0].turns = {TurnFigures{}};
  one.arms[0].turns[0].fast_p.assign(report.thresholds.size(), 0);
  one.arms[0].turns[0].fast_p_at_k.assign(report.thresholds.size(), 0);
  return csv(rows, turn_rows(one).front());
}
std::string turns_jsonl(const CampaignReport& report) {
  return jsonl(turn_rows(report));
}

}  // namespace agent
