#include "profiler/profile.h"

namespace profiler {
using nlohmann::json;

void to_json(json& j, const KernelRecord& k) {
  j = {{"name", k.name},
       {"duration_us", k.duration_us},
       {"grid", {k.grid[0], k.grid[1], k.grid[2]}},
       {"block", {k.block[0], k.block[1], k.block[2]}},
       {"registers", k.registers},
       {"static_smem", k.static_smem},
       {"dynamic_smem", k.dynamic_smem},
       {"local_mem", k.local_mem},
       {"metrics", k.metrics}};
}

void from_json(const json& j, KernelRecord& k) {
  k.name = j.value("name", "");
  k.duration_us = j.value("duration_us", 0.0);
  for (int i = 0; i < 3; ++i) {
    if (j.contains("grid")) k.grid[i] = j["grid"].at(i).get<int>();
    if (j.contains("block")) k.block[i] = j["block"].at(i).get<int>();
  }
  k.registers = j.value("registers", 0);
  k.static_smem = j.value("static_smem", 0);
  k.dynamic_smem = j.value("dynamic_smem", 0);
  k.local_mem = j.value("local_mem", 0);
  k.metrics = j.value("metrics", std::map<std::string, double>{});
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(MemoryRecord, kind, bytes, duration_us)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CallProfile, kernels, memory, wall_us)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(DeviceLimits, name, sm_count, peak_fp32_tflops, peak_dram_tbps,
                                                max_warps_per_sm, max_blocks_per_sm, registers_per_sm, smem_per_sm,
                                                smem_per_block_optin)

json to_json(const Profile& p) {
  return {{"tool", p.tool},
          {"candidate", p.candidate},
          {"reference", p.reference},
          {"metrics", p.metrics},
          {"counters", p.counters},
          {"counters_note", p.counters_note},
          {"device", p.device},
          {"flops", p.flops},
          {"bytes", p.bytes},
          {"overhead_ms", p.overhead_ms},
          {"activity_ms", p.activity_ms},
          {"counters_ms", p.counters_ms}};
}

base::Result<Profile> profile_from_json(const json& j) {
  try {
    Profile p;
    p.tool = j.value("tool", "");
    p.candidate = j.value("candidate", CallProfile{});
    p.reference = j.value("reference", CallProfile{});
    p.metrics = j.value("metrics", std::vector<std::string>{});
    p.counters = j.value("counters", false);
    p.counters_note = j.value("counters_note", "");
    p.device = j.value("device", DeviceLimits{});
    p.flops = j.value("flops", 0.0);
    p.bytes = j.value("bytes", 0.0);
    p.overhead_ms = j.value("overhead_ms", 0.0);
    p.activity_ms = j.value("activity_ms", 0.0);
    p.counters_ms = j.value("counters_ms", 0.0);
    return p;
  } catch (const json::exception& e) {
    return base::Error{std::string("malformed profile: ") + e.what()};
  }
}

const std::vector<std::string>& default_metrics() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v = {
        metric::sm_throughput,      metric::memory_throughput, metric::dram_bytes_per_second, metric::dram_throughput,
        metric::achieved_occupancy, metric::l1_hit_rate,       metric::l2_hit_rate,           metric::duration};
    for (const char* reason : {"long_scoreboard", "short_scoreboard", "barrier", "mio_throttle", "lg_throttle",
                               "math_pipe_throttle", "wait", "not_selected", "membar", "no_instruction"})
      v.push_back(std::string(metric::stall_prefix) + reason + metric::stall_suffix);
    return v;
  }();
  return names;
}

}  // namespace profiler
