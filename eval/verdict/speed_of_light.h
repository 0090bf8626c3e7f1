// Speed of light: the fastest a GPU could do a problem's work, and the share
// of that a correct candidate reached (the speed-of-light fraction of
// NVIDIA's SOL-ExecBench and KernelBench's roofline work). Unlike a speedup,
// it does not move when the PyTorch baseline does.
//
//   bound_ms     = max(FLOPs / the GPU's peak for the problem's precision,
//                      bytes / the GPU's memory bandwidth)
//   sol_fraction = bound_ms / the candidate's median time
//
// FLOPs and bytes are the spec's `flops` and `bytes` at the size evaluated.
// The precision is the problem's floating inputs': float16 or bfloat16 take
// the dense tensor-core peak; float32 the FP32 (non-tensor) peak, because
// refinery's float32 means float32 (TF32 fails the tolerance); float64 the
// FP64 peak; integer or boolean problems the FP32 peak. A fraction above 1 is
// possible only when the spec's FLOPs or bytes overcount the work.
//
// The peaks are the vendors' datasheet figures (dense, boost clock); the
// table names its source per row. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "eval/problems/problem.h"

namespace eval {

struct GpuPeaks {
  std::string name;  // "H100 SXM"
  double fp64_tflops = 0;
  double fp32_tflops = 0;  // non-tensor
  double half_tflops = 0;  // fp16 / bf16 dense tensor core
  double memory_tbps = 0;  // DRAM bandwidth, TB/s
  std::string source;
};

// The row whose names match a device name as CUDA gives it ("NVIDIA H100 80GB
// HBM3"), or none for a GPU the table does not know.
std::optional<GpuPeaks> gpu_peaks(const std::string& device_name);
const std::vector<GpuPeaks>& gpu_peak_table();

struct SpeedOfLight {
  std::optional<double> bound_ms;  // none: `note` says why
  std::string precision;           // "fp32", "half", "fp64"
  std::string gpu;                 // the table's row
  std::string note;
};

// The bound of `problem` at `size` on the GPU named `device_name`.
SpeedOfLight speed_of_light(const Problem& problem, Size size, const std::string& device_name);

}  // namespace eval
