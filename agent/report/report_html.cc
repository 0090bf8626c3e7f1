// The HTML printer of report_printers.h: one file that opens with no network.
// The page is the report's data (JSON, in a script element of its own), the
// vendored d3 and Observable Plot (third_party/, compiled in), and the page
// script (report_page.js) that draws from the data. Every text a run wrote
// reaches the page through the JSON and textContent, never as markup: a
// model's message holding "</script>" or an <img onerror> is shown, not run.
#include "agent/report/report_printers.h"
#include "build_info.h"

namespace agent {
using nlohmann::json;

namespace {

constexpr const char* kD3 =
#include "embedded/d3.inc"
    ;
constexpr const char* kPlot =
#include "embedded/plot.inc"
    ;
constexpr const char* kPage =
#include "embedded/report_page.inc"
    ;
constexpr const char* kStyle =
#include "embedded/report_page_css.inc"
    ;

// Inline script text: "</script" would end the element early.
std::string script_text(std::string text) {
  for (size_t at = 0; (at = text.find("</", at)) != std::string::npos; at += 3) text.replace(at, 2, "<\\/");
  return text;
}

// JSON inside <script type="application/json">: every '<' escaped, so that no
// string in it can close the element or open a comment.
std::string embedded_json(const json& j) {
  const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + 64);
  for (char c : text) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

std::string escape_html(const std::string& s) {
  std::string out;
  for (char c : s) switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  return out;
}

}  // namespace

std::string html_report(const CampaignReport& report, const std::vector<AttemptRow>& rows,
                        const std::vector<Comparison>& comparisons, const HtmlMeta& meta) {
  // The rows as columns and arrays: a third of the size of one object per row.
  json columns = json::array(), data = json::array();
  const auto header = attempt_json(AttemptRow{});
  for (auto it = header.begin(); it != header.end(); ++it) columns.push_back(it.key());
  for (const auto& r : rows) {
    const auto one = attempt_json(r);
    json row = json::array();
    for (const auto& value : one) row.push_back(json(value));
    data.push_back(std::move(row));
  }
  json compared = json::array();
  for (const auto& c : comparisons) compared.push_back(to_json(c));
  const json page = {{"report", to_json(report)},         {"rows", {{"columns", columns}, {"data", data}}},
                     {"comparisons", compared},           {"runs", meta.runs},
                     {"generated_at", meta.generated_at}, {"refinery_version", REFINERY_VERSION}};
  std::string out;
  out.reserve(1 << 20);
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Nothing is fetched: no network, no file but this one.
  out +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
      "style-src 'unsafe-inline'; img-src data:\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>refinery report: " + escape_html(report.config) + "</title>\n";
  out += "<style>\n" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  out += "<header id=\"header\"></header>\n<main id=\"content\"></main>\n";
  out += "<footer><p id=\"page-status\">this page needs JavaScript to draw its figures</p>\n";
  out += "<p class=\"small\">charts: Observable Plot 0.6.17 and d3 7.9.2 (ISC licence), inline.</p></footer>\n";
  out += "<script type=\"application/json\" id=\"refinery-data\">" + embedded_json(page) + "</script>\n";
  out += "<script>\n" + script_text(kD3) + "\n</script>\n";
  out += "<script>\n" + script_text(kPlot) + "\n</script>\n";
  out += "<script>\n" + script_text(kPage) + "\n</script>\n";
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace agent
