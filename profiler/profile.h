// What a profile of one evaluation holds: the kernels the candidate's call
// launched and the reference's, with launch shapes and resource use (CUPTI's
// activity records, or ncu's launch statistics), hardware counters per kernel
// when they could be read, and the device's limits for the roofline. Plain
// data, written by the worker (or parsed from ncu) and summarised for the
// model by profiler/summary.h.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "base/result.h"

namespace profiler {

// One kernel launch.
struct KernelRecord {
  std::string name;  // demangled
  double duration_us = 0;
  int grid[3] = {1, 1, 1};
  int block[3] = {1, 1, 1};
  int registers = 0;                      // per thread
  int static_smem = 0;                    // bytes per block
  int dynamic_smem = 0;                   // bytes per block
  int local_mem = 0;                      // bytes per thread (register spills, local arrays)
  std::map<std::string, double> metrics;  // counter name -> value, for this launch
};

// A memcpy or memset the call issued.
struct MemoryRecord {
  std::string kind;  // "memcpy HtoD", "memcpy DtoD", "memset", ...
  int64_t bytes = 0;
  double duration_us = 0;
};

// Everything one side's call did on the device.
struct CallProfile {
  std::vector<KernelRecord> kernels;  // in launch order
  std::vector<MemoryRecord> memory;
  double wall_us = 0;  // first start to last end on the device
};

// The device's limits, for the roofline and occupancy.
struct DeviceLimits {
  std::string name;
  int sm_count = 0;
  double peak_fp32_tflops = 0;  // sm_count x FP32 lanes per SM x 2 x clock
  double peak_dram_tbps = 0;    // memory clock x bus width x 2
  int max_warps_per_sm = 64;
  int max_blocks_per_sm = 32;
  int registers_per_sm = 65536;
  int smem_per_sm = 233472;  // bytes
  int smem_per_block_optin = 232448;
};

struct Profile {
  std::string tool;  // "cupti" or "ncu"
  CallProfile candidate, reference;
  std::vector<std::string> metrics;  // the counters asked for
  bool counters = false;             // counters were read
  std::string counters_note;         // why not, or which metrics the device lacks
  DeviceLimits device;
  double flops = 0, bytes = 0;              // the problem's work per call (0 = not declared)
  double overhead_ms = 0;                   // wall time the profiling phase added
  double activity_ms = 0, counters_ms = 0;  // cupti: its two parts
};

nlohmann::json to_json(const Profile& p);
base::Result<Profile> profile_from_json(const nlohmann::json& j);

// The counters read by default: NCU's speed-of-light pair, DRAM throughput,
// achieved occupancy, L1 and L2 hit rates, and the warp-stall breakdown.
const std::vector<std::string>& default_metrics();

// Metric names the summary reads (any of them may be absent).
namespace metric {
inline constexpr const char* sm_throughput = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* memory_throughput = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* dram_bytes_per_second = "dram__bytes.sum.per_second";
inline constexpr const char* dram_throughput = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
inline constexpr const char* achieved_occupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* l1_hit_rate = "l1tex__t_sector_hit_rate.pct";
inline constexpr const char* l2_hit_rate = "lts__t_sector_hit_rate.pct";
inline constexpr const char* duration = "gpu__time_duration.sum";
// Warp stalls: "smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio".
inline constexpr const char* stall_prefix = "smsp__average_warps_issue_stalled_";
inline constexpr const char* stall_suffix = "_per_issue_active.ratio";
}  // namespace metric

}  // namespace profiler
