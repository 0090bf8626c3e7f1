#include "eval/verdict/speed_of_light.h"

#include <algorithm>

#include "base/expr.h"
#include "base/text.h"

namespace eval {

namespace {

// Each row: the names a device may go by (matched as lower-case substrings of
// CUDA's name, the first match wins), then its peaks. Order matters: the more
// specific names come first.
struct Row {
  std::vector<std::string> matches;
  GpuPeaks peaks;
};

const std::vector<Row>& rows() {
  static const std::vector<Row> table = {
      {{"h100 pcie"}, {"H100 PCIe", 25.6, 51.2, 756, 2.0, "NVIDIA H100 datasheet (PCIe)"}},
      {{"h100 nvl"}, {"H100 NVL", 30, 60, 835, 3.9, "NVIDIA H100 datasheet (NVL)"}},
      {{"h100"}, {"H100 SXM", 34, 67, 989.4, 3.35, "NVIDIA H100 datasheet (SXM5)"}},
      {{"h200"}, {"H200 SXM", 34, 67, 989.4, 4.8, "NVIDIA H200 datasheet (SXM)"}},
      {{"a100-sxm4-40gb", "a100-sxm-40gb"}, {"A100 SXM 40GB", 9.7, 19.5, 312, 1.555, "NVIDIA A100 datasheet"}},
      {{"a100-sxm", "a100 sxm"}, {"A100 SXM 80GB", 9.7, 19.5, 312, 2.039, "NVIDIA A100 datasheet"}},
      {{"a100 80gb pcie", "a100-pcie-80gb"}, {"A100 PCIe 80GB", 9.7, 19.5, 312, 1.935, "NVIDIA A100 datasheet"}},
      {{"a100"}, {"A100 PCIe 40GB", 9.7, 19.5, 312, 1.555, "NVIDIA A100 datasheet"}},
      {{"l40s"}, {"L40S", 1.43, 91.6, 362.05, 0.864, "NVIDIA L40S datasheet"}},
      {{"b200"}, {"B200 (HGX, 1000 W)", 40, 80, 2250, 8.0, "NVIDIA HGX B200 datasheet, per GPU"}},
  };
  return table;
}

}  // namespace

const std::vector<GpuPeaks>& gpu_peak_table() {
  static const std::vector<GpuPeaks> peaks = [] {
    std::vector<GpuPeaks> out;
    for (const auto& r : rows()) out.push_back(r.peaks);
    return out;
  }();
  return peaks;
}

std::optional<GpuPeaks> gpu_peaks(const std::string& device_name) {
  std::string name = device_name;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const auto& r : rows())
    for (const auto& m : r.matches)
      if (name.find(m) != std::string::npos) return r.peaks;
  return std::nullopt;
}

SpeedOfLight speed_of_light(const Problem& problem, Size size, const std::string& device_name) {
  SpeedOfLight sol;
  const auto peaks = gpu_peaks(device_name);
  if (!peaks) {
    sol.note = "no peaks for GPU '" + device_name + "' in refinery's table (eval/verdict/speed_of_light.cc)";
    return sol;
  }
  sol.gpu = peaks->name;
  bool half = false, fp64 = false;
  for (const auto& in : problem.inputs) {
    if (in.is_scalar) continue;
    half |= in.dtype == DType::float16 || in.dtype == DType::bfloat16;
    fp64 |= in.dtype == DType::float64;
  }
  sol.precision = half ? "half" : fp64 ? "fp64" : "fp32";
  const double tflops = half ? peaks->half_tflops : fp64 ? peaks->fp64_tflops : peaks->fp32_tflops;
  const base::Dims* dims = problem.size(size);
  if (!dims || (problem.flops.empty() && problem.bytes.empty())) {
    sol.note = problem.id + " declares no flops or bytes";
    return sol;
  }
  double bound_s = 0;
  if (!problem.flops.empty()) {
    auto flops = base::eval_int_expr(problem.flops, *dims);
    if (!flops) {
      sol.note = problem.id + ": flops: " + flops.error().message;
      return sol;
    }
    bound_s = std::max(bound_s, static_cast<double>(*flops) / (tflops * 1e12));
  }
  if (!problem.bytes.empty()) {
    auto bytes = base::eval_int_expr(problem.bytes, *dims);
    if (!bytes) {
      sol.note = problem.id + ": bytes: " + bytes.error().message;
      return sol;
    }
    bound_s = std::max(bound_s, static_cast<double>(*bytes) / (peaks->memory_tbps * 1e12));
  }
  if (bound_s <= 0) {
    sol.note = problem.id + ": flops and bytes are 0 at this size";
    return sol;
  }
  sol.bound_ms = bound_s * 1e3;
  return sol;
}

}  // namespace eval
