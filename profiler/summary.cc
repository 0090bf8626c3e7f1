#include "profiler/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "base/text.h"

namespace profiler {
namespace {

constexpr const char* kTrimmed = "[profile trimmed]";

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

// "412.5 us" below a millisecond, else "1.23 ms", "12.3 ms", "123 ms".
std::string format_us(double us) {
  if (us < 1000) return format("%.1f us", us);
  double ms = us / 1000;
  if (ms < 10) return format("%.2f ms", ms);
  if (ms < 100) return format("%.1f ms", ms);
  return format("%.0f ms", ms);
}

std::string plural(long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string shape(const int v[3]) {
  return format("(%d,%d,%d)", v[0], v[1], v[2]);
}

// The kernels of one side that share a name: one row of the summary.
struct KernelGroup {
  std::string name;
  int launches = 0;
  double total_us = 0;
  profiler::KernelRecord first;  // shape and resources of the first launch
  bool shapes_vary = false;
  std::map<std::string, double> metrics;  // averaged, weighted by duration
};

bool same_shape(const profiler::KernelRecord& a, const profiler::KernelRecord& b) {
  return std::equal(a.grid, a.grid + 3, b.grid) && std::equal(a.block, a.block + 3, b.block);
}

// Groups launches by name, largest total time first (ties by name).
std::vector<KernelGroup> group_kernels(const std::vector<profiler::KernelRecord>& kernels) {
  struct Sums {
    double weighted = 0, weight = 0, plain = 0;
    int n = 0;
  };
  std::map<std::string, size_t> index;
  std::vector<KernelGroup> groups;
  std::vector<std::map<std::string, Sums>> sums;
  for (const auto& k : kernels) {
    auto [it, added] = index.emplace(k.name, groups.size());
    if (added) {
      groups.push_back({k.name, 0, 0, k, false, {}});
      sums.emplace_back();
    }
    KernelGroup& g = groups[it->second];
    g.launches += 1;
    g.total_us += k.duration_us;
    if (!same_shape(g.first, k)) g.shapes_vary = true;
    for (const auto& [name, value] : k.metrics) {
      Sums& s = sums[it->second][name];
      s.weighted += value * k.duration_us;
      s.weight += k.duration_us;
      s.plain += value;
      s.n += 1;
    }
  }
  for (size_t i = 0; i < groups.size(); ++i)
    for (const auto& [name, s] : sums[i])
      groups[i].metrics[name] = s.weight > 0 ? s.weighted / s.weight : s.plain / s.n;
  std::stable_sort(groups.begin(), groups.end(), [](const KernelGroup& a, const KernelGroup& b) {
    if (a.total_us != b.total_us) return a.total_us > b.total_us;
    return a.name < b.name;
  });
  return groups;
}

std::optional<double> find(const std::map<std::string, double>& m, const char* name) {
  auto it = m.find(name);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

// "SM 31%, memory 93% of peak: memory-bound, 7% from the limit; DRAM 4.41 TB/s
// (92% of peak); L1 hit 0%, L2 hit 33%", or "" without counters.
std::string speed_of_light(const std::map<std::string, double>& m) {
  std::vector<std::string> parts;
  auto sm = find(m, metric::sm_throughput);
  auto mem = find(m, metric::memory_throughput);
  if (sm && mem) {
    long s = std::lround(*sm), me = std::lround(*mem);
    if (s < 60 && me < 60) {
      parts.push_back(format("neither SM (%ld%%) nor memory (%ld%%) is busy: latency- or launch-bound", s, me));
    } else {
      bool memory = me >= s;
      parts.push_back(format("SM %ld%%, memory %ld%% of peak: %s-bound, %ld%% from the limit", s, me,
                             memory ? "memory" : "compute", std::max(0L, 100 - (memory ? me : s))));
    }
  } else if (sm) {
    parts.push_back(format("SM %.0f%% of peak", *sm));
  } else if (mem) {
    parts.push_back(format("memory %.0f%% of peak", *mem));
  }
  auto dram_rate = find(m, metric::dram_bytes_per_second);
  auto dram_pct = find(m, metric::dram_throughput);
  if (dram_rate && dram_pct)
    parts.push_back(format("DRAM %.2f TB/s (%.0f%% of peak)", *dram_rate / 1e12, *dram_pct));
  else if (dram_rate)
    parts.push_back(format("DRAM %.2f TB/s", *dram_rate / 1e12));
  else if (dram_pct)
    parts.push_back(format("DRAM %.0f%% of peak", *dram_pct));
  std::vector<std::string> hits;
  if (auto l1 = find(m, metric::l1_hit_rate)) hits.push_back(format("L1 hit %.0f%%", *l1));
  if (auto l2 = find(m, metric::l2_hit_rate)) hits.push_back(format("L2 hit %.0f%%", *l2));
  if (!hits.empty()) parts.push_back(base::join(hits, ", "));
  return base::join(parts, "; ");
}

// The three largest warp-stall reasons, or "" without them.
std::string stall_line(const std::map<std::string, double>& m) {
  std::string prefix = metric::stall_prefix, suffix = metric::stall_suffix;
  std::vector<std::pair<std::string, double>> stalls;
  for (const auto& [name, value] : m)
    if (name.size() > prefix.size() + suffix.size() && base::starts_with(name, prefix) && base::ends_with(name, suffix))
      stalls.emplace_back(name.substr(prefix.size(), name.size() - prefix.size() - suffix.size()), value);
  if (stalls.empty()) return "";
  std::stable_sort(stalls.begin(), stalls.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::string> parts;
  for (size_t i = 0; i < stalls.size() && i < 3; ++i)
    parts.push_back(format("%s %.2f", stalls[i].first.c_str(), stalls[i].second));
  return "top warp stalls (warps stalled per issue): " + base::join(parts, ", ");
}

std::string smem_text(int bytes) {
  if (bytes < 1024) return format("%d B", bytes);
  return format("%d B (%.1f KiB)", bytes, bytes / 1024.0);
}

void kernel_lines(std::vector<std::string>& out, int rank, const KernelGroup& g, double side_us,
                  const profiler::DeviceLimits& device, bool stalls) {
  const std::string indent = "     ";
  double share = side_us > 0 ? 100 * g.total_us / side_us : 0;
  out.push_back(format("  %d. ", rank) + shorten_kernel_name(g.name) + format(": %.0f%% of the kernel time, ", share) +
                plural(g.launches, "launch", "launches") + ", " + format_us(g.total_us));
  const auto& k = g.first;
  std::string res = "grid " + shape(k.grid) + " block " + shape(k.block);
  if (g.shapes_vary) res += ", shapes vary";
  res += format("; %d registers/thread, shared memory %s/block", k.registers,
                smem_text(k.static_smem + k.dynamic_smem).c_str());
  if (k.local_mem > 0) res += format(", spills %d B/thread", k.local_mem);
  std::string limiter;
  double theoretical = theoretical_occupancy(k, device, &limiter);
  res += format("; occupancy %.0f%% theoretical", theoretical);
  if (theoretical < 100) res += " (limited by " + limiter + ")";
  if (auto achieved = find(g.metrics, metric::achieved_occupancy)) res += format(", %.0f%% achieved", *achieved);
  out.push_back(indent + res);
  if (std::string sol = speed_of_light(g.metrics); !sol.empty()) out.push_back(indent + sol);
  if (std::string st = stall_line(g.metrics); stalls && !st.empty()) out.push_back(indent + st);
}

bool is_library_kernel(const std::string& name, const std::set<std::string>& reference_names) {
  if (reference_names.count(name)) return true;
  for (const char* prefix : {"at::", "void at::", "cublas", "cutlass", "void cutlass", "sm90_", "sm80_", "ampere_",
                             "nvjet", "cudnn", "void cudnn"})
    if (base::starts_with(name, prefix)) return true;
  return false;
}

// "Roofline, on the problem's own work (0.81 GFLOP, 12.9 GB a call): 0.31
// TFLOP/s, 3.92 TB/s achieved; the roofline bound is ...", or "" when the
// problem declares no work or the device has no peaks. The bytes are the
// problem's minimum traffic, so a kernel that reads its input twice shows a
// DRAM throughput above this line's TB/s.
std::string roofline_line(const profiler::Profile& p, double side_us) {
  const auto& d = p.device;
  if ((p.flops <= 0 && p.bytes <= 0) || d.peak_fp32_tflops <= 0 || d.peak_dram_tbps <= 0 || side_us <= 0) return "";
  double seconds = side_us * 1e-6;
  double compute_s = p.flops / (d.peak_fp32_tflops * 1e12);
  double memory_s = p.bytes / (d.peak_dram_tbps * 1e12);
  bool compute = compute_s > memory_s;
  double bound_s = std::max(compute_s, memory_s);
  std::string intensity = p.bytes > 0 ? format("%.2f FLOP/B", p.flops / p.bytes) : "unbounded";
  std::string achieved =
      format("Roofline, on the problem's own work (%.3g GFLOP, %.3g GB a call): %.2f TFLOP/s, %.2f TB/s achieved",
             p.flops / 1e9, p.bytes / 1e9, p.flops / seconds / 1e12, p.bytes / seconds / 1e12);
  return achieved + "; the roofline bound is " + (compute ? "compute" : "memory") + " (arithmetic intensity " +
         intensity +
         format(" vs ridge %.1f): %.0f%% of the bound", d.peak_fp32_tflops / d.peak_dram_tbps, 100 * bound_s / seconds);
}

std::string memory_line(const std::vector<profiler::MemoryRecord>& memory) {
  if (memory.empty()) return "";
  std::map<std::string, int> counts;
  double bytes = 0, us = 0;
  for (const auto& m : memory) {
    counts[m.kind] += 1;
    bytes += static_cast<double>(m.bytes);
    us += m.duration_us;
  }
  std::vector<std::string> kinds;
  for (const auto& [kind, n] : counts) kinds.push_back(std::to_string(n) + " " + kind);
  return "Memory operations: " + std::to_string(memory.size()) + " (" + base::join(kinds, ", ") + "), " +
         base::format_bytes(bytes) + ", " + format_us(us);
}

struct Detail {
  int candidate_kernels = 0;
  int reference_kernels = 0;
  bool stalls = true;
};

void side_lines(std::vector<std::string>& out, const profiler::Profile& p, bool candidate, const Detail& detail) {
  const profiler::CallProfile& call = candidate ? p.candidate : p.reference;
  const char* title = candidate ? "Your code" : "The reference (PyTorch)";
  if (call.kernels.empty()) {
    out.push_back(std::string(title) + " launched no GPU kernel.");
  } else {
    auto groups = group_kernels(call.kernels);
    double side_us = 0;
    for (const auto& g : groups) side_us += g.total_us;
    out.push_back(std::string(title) + ": " + plural(static_cast<long>(call.kernels.size()), "launch", "launches") +
                  " of " + plural(static_cast<long>(groups.size()), "kernel", "kernels") + ", " + format_us(side_us) +
                  " of kernel time on the GPU.");
    if (candidate) {
      std::set<std::string> reference_names;
      for (const auto& k : p.reference.kernels) reference_names.insert(k.name);
      bool all_library = std::all_of(groups.begin(), groups.end(),
                                     [&](const KernelGroup& g) { return is_library_kernel(g.name, reference_names); });
      if (all_library)
        out.push_back(
            "None of them is a kernel of your own: your code only called library kernels (PyTorch, cuBLAS, ...).");
    }
    int shown = std::min<int>(candidate ? detail.candidate_kernels : detail.reference_kernels, groups.size());
    for (int i = 0; i < shown; ++i) kernel_lines(out, i + 1, groups[i], side_us, p.device, detail.stalls);
    if (shown < static_cast<int>(groups.size())) {
      double rest_us = 0;
      int rest_launches = 0;
      for (size_t i = shown; i < groups.size(); ++i) {
        rest_us += groups[i].total_us;
        rest_launches += groups[i].launches;
      }
      out.push_back("  (" + plural(static_cast<long>(groups.size()) - shown, "more kernel", "more kernels") + ": " +
                    format("%.0f%% of the kernel time, ", side_us > 0 ? 100 * rest_us / side_us : 0) +
                    plural(rest_launches, "launch", "launches") + ")");
    }
    if (std::string r = roofline_line(p, side_us); !r.empty()) out.push_back("  " + r);
  }
  if (std::string m = memory_line(call.memory); !m.empty()) out.push_back("  " + m);
}

std::string render(const profiler::Profile& p, const Detail& detail) {
  std::vector<std::string> out;
  out.push_back("Profile (" + p.tool + ", " + p.device.name + "):");
  if (!p.counters) {
    out.push_back(p.counters_note.empty() ? "Hardware counters: not collected."
                                          : "Hardware counters: not collected: " + p.counters_note);
  } else if (!p.counters_note.empty()) {
    out.push_back("Hardware counters: " + p.counters_note);
  }
  side_lines(out, p, true, detail);
  side_lines(out, p, false, detail);
  return base::join(out, "\n");
}

// Whole lines of text that fit with the trimmed marker within budget.
std::string trim_to_budget(const std::string& text, size_t budget) {
  std::string marker = std::string("\n") + kTrimmed;
  if (budget <= marker.size()) return std::string(kTrimmed).substr(0, budget);
  size_t room = budget - marker.size();
  size_t cut = text.rfind('\n', room);
  if (cut == std::string::npos || cut == 0) cut = room;
  return text.substr(0, cut) + marker;
}

// The index of the '(' that opens the parameter list ending s, or npos.
size_t parameter_list_start(const std::string& s) {
  if (s.empty() || s.back() != ')') return std::string::npos;
  int depth = 0;
  for (size_t i = s.size(); i-- > 0;) {
    if (s[i] == ')') {
      ++depth;
    } else if (s[i] == '(' && --depth == 0) {
      return i;
    }
  }
  return std::string::npos;
}

// The index of the first '<' outside parentheses, or npos.
size_t template_start(const std::string& s) {
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(')
      ++depth;
    else if (s[i] == ')')
      --depth;
    else if (s[i] == '<' && depth == 0)
      return i;
  }
  return std::string::npos;
}

}  // namespace

std::string shorten_kernel_name(const std::string& name, size_t max_chars) {
  if (name.size() <= max_chars) return name;
  // "<return type> <function name><template arguments>(<parameters>)": the
  // parameters go first, then the template arguments are cut to fit.
  std::string s = name, params;
  if (size_t open = parameter_list_start(s); open != std::string::npos) {
    params = s.size() - open > 2 ? "(...)" : "()";
    s = s.substr(0, open);
  }
  if (size_t lt = template_start(s); lt != std::string::npos && s.size() + params.size() > max_chars) {
    const std::string cut = "...>";
    size_t fixed = lt + 1 + cut.size() + params.size();
    size_t room = max_chars > fixed ? max_chars - fixed : 0;
    s = s.substr(0, lt + 1 + room) + cut;
  }
  s += params;
  if (s.size() > max_chars) s = s.substr(0, max_chars > 3 ? max_chars - 3 : 0) + "...";
  return s;
}

double theoretical_occupancy(const profiler::KernelRecord& k, const profiler::DeviceLimits& d, std::string* limiter) {
  auto result = [&](const char* why, double value) {
    if (limiter) *limiter = why;
    return value;
  };
  long threads = static_cast<long>(k.block[0]) * k.block[1] * k.block[2];
  if (threads <= 0 || d.max_warps_per_sm <= 0) return result("warps", 0);
  long warps = (threads + 31) / 32;
  constexpr long kUnlimited = std::numeric_limits<long>::max();
  long by_warps = d.max_warps_per_sm / warps;
  long by_registers = kUnlimited;
  if (k.registers > 0 && d.registers_per_sm > 0) {
    long per_warp = (static_cast<long>(k.registers) * 32 + 255) / 256 * 256;
    by_registers = (d.registers_per_sm / per_warp) / warps;
  }
  long smem = static_cast<long>(k.static_smem) + k.dynamic_smem;
  long by_smem = kUnlimited;
  if (d.smem_per_block_optin > 0 && smem > d.smem_per_block_optin)
    by_smem = 0;
  else if (d.smem_per_sm > 0)
    by_smem = d.smem_per_sm / (smem + 1024);
  long by_blocks = d.max_blocks_per_sm > 0 ? d.max_blocks_per_sm : kUnlimited;
  const std::pair<const char*, long> limits[] = {
      {"warps", by_warps}, {"registers", by_registers}, {"shared memory", by_smem}, {"blocks", by_blocks}};
  auto least = std::min_element(std::begin(limits), std::end(limits),
                                [](const auto& a, const auto& b) { return a.second < b.second; });
  return result(least->first, 100.0 * static_cast<double>(least->second * warps) / d.max_warps_per_sm);
}

std::string summarize(const profiler::Profile& p, const SummaryOptions& o) {
  int most = std::max(0, o.max_kernels);
  // From the most detail to the least: the reference's kernels beyond the
  // first, then the stall lines, then the candidate's kernels beyond two.
  const Detail levels[] = {{most, most, true},
                           {most, std::min(most, 1), true},
                           {most, std::min(most, 1), false},
                           {std::min(most, 2), std::min(most, 1), false}};
  std::string text;
  for (const Detail& detail : levels) {
    text = render(p, detail);
    if (text.size() <= o.budget_bytes) return text;
  }
  return trim_to_budget(text, o.budget_bytes);
}

}  // namespace profiler
