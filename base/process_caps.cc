#include "base/process_caps.h"

#include <signal.h>
#include <sys/resource.h>

#include <cctype>
#include <cmath>
#include <initializer_list>

#include "base/text.h"

namespace base {
namespace {

// "6 GiB", "256 MiB", "1.5 GiB".
std::string bytes(uint64_t n) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double v = static_cast<double>(n);
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return format_number(std::round(v * 10) / 10) + " " + units[u];
}

std::string seconds(double s) {
  return format_number(s) + " s";
}

// A line the tool printed about itself, not a line of the source it quotes
// ("  12 | const char* m = \"out of memory\";", or the caret under it).
bool is_quoted_source(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || std::isdigit(static_cast<unsigned char>(line[i])))) ++i;
  return i > 0 && i < line.size() && line[i] == '|';
}

bool says(const ProcessResult& r, std::initializer_list<const char*> signs) {
  for (const std::string* stream : {&r.err, &r.out})
    for (const auto& line : split(*stream, '\n')) {
      if (is_quoted_source(line)) continue;
      for (const char* sign : signs)
        if (line.find(sign) != std::string::npos) return true;
    }
  return false;
}

}  // namespace

std::vector<ResourceLimit> limits(const ProcessCaps& caps) {
  std::vector<ResourceLimit> out = {{RLIMIT_CORE, 0}};
  if (caps.memory_bytes) out.push_back({caps.private_memory_only ? RLIMIT_DATA : RLIMIT_AS, caps.memory_bytes});
  if (caps.cpu_seconds > 0) {
    // SIGXCPU at the cap names it in the tool's own words; SIGKILL a little
    // later for a process that ignores it (a PID namespace's first process does).
    auto soft = static_cast<unsigned long long>(std::ceil(caps.cpu_seconds));
    out.push_back({RLIMIT_CPU, soft, soft + 5});
  }
  if (caps.file_bytes) out.push_back({RLIMIT_FSIZE, caps.file_bytes});
  if (caps.processes) out.push_back({RLIMIT_NPROC, caps.processes});
  return out;
}

std::string describe(const ProcessCaps& caps) {
  auto or_none = [](bool set, const std::string& v) { return set ? v : std::string("none"); };
  return std::string(caps.private_memory_only ? "private memory " : "memory ") +
         or_none(caps.memory_bytes != 0, bytes(caps.memory_bytes)) + ", cpu " +
         or_none(caps.cpu_seconds > 0, seconds(caps.cpu_seconds)) + ", file " +
         or_none(caps.file_bytes != 0, bytes(caps.file_bytes)) + ", processes " +
         or_none(caps.processes != 0, std::to_string(caps.processes));
}

std::optional<std::string> exceeded_cap(const ProcessResult& r, const ProcessCaps& caps) {
  if (r.timed_out || r.exited_ok()) return std::nullopt;
  // The kernel's own count: the run and all it started reached the cgroup's cap together.
  if (r.memory_cgroup_oom) return "memory cap (" + bytes(r.memory_cgroup_bytes) + ", its cgroup's OOM killer)";
  // A write past RLIMIT_FSIZE: SIGXFSZ, or EFBIG where the signal is ignored.
  if (caps.file_bytes &&
      (r.signal == SIGXFSZ || says(r, {"File size limit exceeded", "File too large", "died due to signal 25"})))
    return "file size cap (" + bytes(caps.file_bytes) + ")";
  if (caps.cpu_seconds > 0) {
    const bool killed = r.signal == SIGKILL || says(r, {"Killed signal terminated program", "died due to signal 9"});
    if (r.signal == SIGXCPU || says(r, {"CPU time limit exceeded", "died due to signal 24"}) ||
        (killed && r.cpu_seconds >= caps.cpu_seconds))
      return "CPU time cap (" + seconds(caps.cpu_seconds) + ")";
  }
  // An allocation refused by RLIMIT_AS: each tool words it its own way. An
  // EDG front end (cudafe++, cicc) refused memory while it reports may say
  // no more than how many catastrophic errors it met, and not which.
  const bool bare_catastrophe =
      says(r, {"catastrophic error detected", "catastrophic errors detected"}) && !says(r, {"catastrophic error: "});
  if (caps.memory_bytes && (bare_catastrophe || says(r, {"out of memory", "Out of memory", "memory exhausted",
                                                         "Cannot allocate memory", "std::bad_alloc", "MemoryError"})))
    return "memory cap (" + bytes(caps.memory_bytes) + ")";
  return std::nullopt;
}

}  // namespace base
