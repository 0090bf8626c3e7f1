#include "profiler/ncu.h"

#include <cmath>
#include <cstdlib>
#include <map>

#include "base/text.h"

namespace profiler {
using base::Error;

namespace {

// Launch statistics read from ncu's own sections, so that a row carries what
// CUPTI's activity record does.
constexpr const char* kLaunchMetrics[] = {"launch__registers_per_thread",
                                          "launch__shared_mem_per_block_static",
                                          "launch__shared_mem_per_block_dynamic",
                                          "launch__grid_dim_x",
                                          "launch__grid_dim_y",
                                          "launch__grid_dim_z",
                                          "launch__block_dim_x",
                                          "launch__block_dim_y",
                                          "launch__block_dim_z",
                                          "gpu__time_duration.sum"};

// One CSV record; quoted fields may hold commas.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  out.push_back(field);
  return out;
}

// A value in base units; thousands separators are dropped. nan when not a number.
double number(std::string text) {
  std::string digits;
  for (char c : text)
    if (c != ',' && c != ' ') digits += c;
  if (digits.empty() || digits == "n/a") return std::nan("");
  char* end = nullptr;
  double v = std::strtod(digits.c_str(), &end);
  return end && *end == '\0' ? v : std::nan("");
}

// Time to microseconds, whatever unit ncu printed.
double to_us(double v, const std::string& unit) {
  if (unit == "nsecond" || unit == "ns") return v / 1e3;
  if (unit == "usecond" || unit == "us") return v;
  if (unit == "msecond" || unit == "ms") return v * 1e3;
  if (unit == "second" || unit == "s") return v * 1e6;
  return v / 1e3;  // ncu's base unit for durations is the nanosecond
}

}  // namespace

std::vector<std::string> ncu_arguments(const std::string& ncu_path, const std::vector<std::string>& metrics,
                                       const std::string& log_path) {
  std::string list;
  for (const char* m : kLaunchMetrics) list += (list.empty() ? "" : ",") + std::string(m);
  for (const auto& m : metrics) list += "," + m;
  return {ncu_path, "--profile-from-start", "off", "--csv",      "--page", "raw", "--print-units", "base", "--metrics",
          list,     "--target-processes",   "all", "--log-file", log_path};
}

base::Result<Profile> parse_ncu_csv(const std::string& text, const std::vector<std::string>& metrics) {
  // ncu prints its own "==PROF==" lines too; the CSV starts at the header.
  auto lines = base::split(text, '\n');
  size_t header = lines.size();
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].rfind("\"ID\"", 0) == 0) {
      header = i;
      break;
    }
  if (header + 1 >= lines.size()) {
    const std::string tail = base::trim(base::last_lines(text, 5));
    return Error{"ncu wrote no kernel table" + (tail.empty() ? std::string() : ":\n" + tail)};
  }
  std::vector<std::string> columns = csv_fields(lines[header]);
  std::vector<std::string> units = csv_fields(lines[header + 1]);
  std::map<std::string, size_t> at;
  for (size_t i = 0; i < columns.size(); ++i) at[columns[i]] = i;
  for (const char* needed : {"Kernel Name", "gpu__time_duration.sum"})
    if (!at.count(needed)) return Error{std::string("ncu's table has no '") + needed + "' column"};

  Profile p;
  p.tool = "ncu";
  p.metrics = metrics;
  p.counters = true;
  bool after_marker = false, saw_marker = false;
  std::vector<std::string> missing;
  for (const auto& m : metrics)
    if (!at.count(m)) missing.push_back(m);
  for (size_t i = header + 2; i < lines.size(); ++i) {
    if (lines[i].empty() || lines[i].rfind("==", 0) == 0) continue;
    auto f = csv_fields(lines[i]);
    if (f.size() < columns.size()) continue;
    auto get = [&](const char* name) { return at.count(name) ? number(f[at[name]]) : std::nan(""); };
    auto get_int = [&](const char* name) {
      double v = get(name);
      return std::isnan(v) ? 0 : static_cast<int>(v);
    };
    const std::string name = f[at["Kernel Name"]];
    if (name.find("refinery_profile_marker") != std::string::npos) {
      after_marker = saw_marker = true;
      continue;
    }
    KernelRecord k;
    k.name = name;
    k.duration_us = to_us(get("gpu__time_duration.sum"), units[at["gpu__time_duration.sum"]]);
    k.registers = get_int("launch__registers_per_thread");
    k.static_smem = get_int("launch__shared_mem_per_block_static");
    k.dynamic_smem = get_int("launch__shared_mem_per_block_dynamic");
    const char* grid[] = {"launch__grid_dim_x", "launch__grid_dim_y", "launch__grid_dim_z"};
    const char* block[] = {"launch__block_dim_x", "launch__block_dim_y", "launch__block_dim_z"};
    for (int d = 0; d < 3; ++d) {
      k.grid[d] = std::max(1, get_int(grid[d]));
      k.block[d] = std::max(1, get_int(block[d]));
    }
    for (const auto& m : metrics) {
      double v = get(m.c_str());
      if (!std::isnan(v)) k.metrics[m] = m == "gpu__time_duration.sum" ? to_us(v, units[at[m]]) * 1e3 : v;
    }
    (after_marker ? p.reference : p.candidate).kernels.push_back(std::move(k));
  }
  if (!saw_marker)
    return Error{"ncu's table has no marker kernel row: cannot tell the candidate's kernels from the reference's"};
  for (auto* side : {&p.candidate, &p.reference})
    for (const auto& k : side->kernels) side->wall_us += k.duration_us;
  if (!missing.empty()) p.counters_note = "ncu did not report: " + base::join(missing, ", ");
  return p;
}

}  // namespace profiler
