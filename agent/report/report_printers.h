// The printers of a campaign's report (run_report.h): each renders the typed
// report alone, so a new one (CSV, HTML) is one more function here.
//   JSON  RUN/report.json and `refinery report --json`: for scripts
//   text  RUN/report.txt and the terminal: for people
// Pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "agent/report/run_report.h"

namespace agent {

nlohmann::json to_json(const CampaignReport& report);
std::string format_report(const CampaignReport& report);

}  // namespace agent
