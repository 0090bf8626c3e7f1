#include "agent/cli/format.h"

#include <cstdio>

#include "base/text.h"

namespace agent {
namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string index_string(const std::vector<int64_t>& index) {
  std::vector<std::string> parts;
  for (auto i : index) parts.push_back(std::to_string(i));
  return "[" + base::join(parts, ", ") + "]";
}

}  // namespace

std::string format_outcome(const eval::Outcome& o, const Printer& printer) {
  using eval::Status;
  std::string status = eval::to_string(o.status);
  std::string out =
      (o.status == Status::correct ? printer.green(status) : printer.red(status)) + ": " + o.message + "\n";
  if (o.timing) {
    const auto& t = *o.timing;
    out += "  speedup    " + fmt("%.3fx", t.speedup) + "\n";
    out += "  candidate  " + base::format_ms(t.candidate.median_ms) + " median, spread " +
           fmt("%.1f%%", 100 * t.candidate.spread()) + ", " + std::to_string(t.candidate.trials) + " trials\n";
    out += "  reference  " + base::format_ms(t.reference.median_ms) + " median, spread " +
           fmt("%.1f%%", 100 * t.reference.spread()) + ", " + std::to_string(t.reference.trials) + " trials\n";
    out += "  clock      " + t.clock + (t.device_wide ? " (device-wide: work outside the stream)" : "") +
           (t.l2_flushed ? ", cache flushed before each trial" : "") + "\n";
  }
  if (!o.precision.empty())
    out += "  precision  " + o.precision + (o.precision_note.empty() ? "" : ": " + o.precision_note) + "\n";
  if (o.status == Status::compile_error && o.compile)
    out += "  compiler output:\n" + base::head_and_tail(o.compile->log, 6000) + "\n";
  if (o.status == Status::mismatch) {
    for (const auto& d : o.trials) {
      out += "  trial " + std::to_string(d.trial) + " output " + std::to_string(d.output) + ": " +
             std::to_string(d.mismatches) + " of " + std::to_string(d.elements) + " elements differ, max abs " +
             fmt("%.3g", d.max_abs) + ", max rel " + fmt("%.3g", d.max_rel) +
             (d.nonfinite ? ", NaN/Inf where the reference has none" : "") + "\n";
      for (const auto& m : d.first)
        out += "    at " + index_string(m.index) + ": expected " + fmt("%.6g", m.expected) + ", got " +
               fmt("%.6g", m.actual) + "\n";
    }
  }
  if (o.status == Status::crashed || o.status == Status::runtime_error || o.status == Status::timeout) {
    std::string tail = base::last_lines(o.stderr_tail, 8);
    if (!tail.empty()) out += "  stderr (last lines):\n" + tail + "\n";
  }
  std::vector<std::string> phases;
  for (const char* k : {"compile", "worker_wall", "device_init", "load", "inputs", "correctness", "timing", "total"})
    if (o.phases_ms.contains(k)) phases.push_back(std::string(k) + " " + base::format_ms(o.phases_ms[k].get<double>()));
  if (!phases.empty()) out += "  time       " + base::join(phases, ", ") + "\n";
  if (o.compile && o.compile->ok) {
    out += std::string("  compile    ") + (o.compile->cached ? "cached" : base::format_ms(o.compile->seconds * 1000));
    std::string steps;
    for (const auto& [name, seconds] : o.compile->steps)
      steps += (steps.empty() ? "" : ", ") + name + " " + base::format_ms(seconds * 1000);
    if (!steps.empty()) out += " (" + steps + ")";
    if (!o.compile->headers.empty()) out += "; headers: " + o.compile->headers;
    out += "\n";
  }
  return out;
}

}  // namespace agent
