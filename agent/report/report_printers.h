// The printers of a campaign's report (run_report.h): each renders the typed
// report alone, so a new one (CSV, HTML) is one more function here.
//   JSON  RUN/report.json and `refinery report --json`: for scripts
//   text  RUN/report.txt and the terminal: for people
//   HTML  RUN/report.html: for people, with charts
//   CSV, JSON lines  `refinery export`: for pandas and the like
// Pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "agent/report/attempt_rows.h"
#include "agent/report/compare.h"
#include "agent/report/run_report.h"

namespace agent {

nlohmann::json to_json(const CampaignReport& report);
std::string format_report(const CampaignReport& report);

nlohmann::json to_json(const Comparison& comparison);
std::string format_comparison(const Comparison& comparison);

// HTML: RUN/report.html and `refinery report --html`, `refinery compare --html`.
// One self-contained page (agent/report/report_html.cc): the report's data as
// JSON, the vendored plotting library (third_party/) and the page script
// (report_page.js) inline, and a Content-Security-Policy that lets it fetch
// nothing. `runs` names the run folders read; attempts' links are rows[].dir.
struct HtmlMeta {
  std::vector<std::string> runs;
  std::string generated_at;  // UTC, ISO 8601
};
std::string html_report(const CampaignReport& report, const std::vector<AttemptRow>& rows,
                        const std::vector<Comparison>& comparisons, const HtmlMeta& meta);

// Exports (`refinery export`): one row per attempt, and one per arm x turn.
std::string attempts_csv(const std::vector<AttemptRow>& rows);
std::string attempts_jsonl(const std::vector<AttemptRow>& rows);
std::string turns_csv(const CampaignReport& report);
std::string turns_jsonl(const CampaignReport& report);
// One attempt's row, its columns in order (the exports' and the HTML's).
nlohmann::ordered_json attempt_json(const AttemptRow& row);

}  // namespace agent
