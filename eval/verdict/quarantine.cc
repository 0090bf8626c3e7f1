#include "eval/verdict/quarantine.h"

#include <cstdio>
#include <sstream>

namespace eval {
namespace {

double dtype_bytes(DType d) {
  switch (d) {
    case DType::float16:
    case DType::bfloat16:
      return 2;
    case DType::float64:
    case DType::int64:
      return 8;
    case DType::boolean:
      return 1;
    case DType::float32:
    case DType::int32:
      return 4;
  }
  return 4;
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

double shape_bytes(const std::string& shape) {
  const size_t open = shape.find('['), close = shape.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return 0;
  double elements = 1;
  std::stringstream dims(shape.substr(open + 1, close - open - 1));
  std::string dim;
  while (std::getline(dims, dim, ',')) {
    try {
      elements *= std::stod(dim);
    } catch (...) {
      return 0;
    }
  }
  std::string name = shape.substr(close + 1);
  name.erase(0, name.find_first_not_of(' '));
  auto dtype = parse_dtype(name);
  return dtype ? elements * dtype_bytes(*dtype) : 0;
}

void apply_library_only(Outcome& outcome, LibraryOnly setting) {
  if (outcome.status != Status::correct || !outcome.kernels || !outcome.kernels->library_only()) return;
  const KernelEvidence& k = *outcome.kernels;
  std::string what = "no kernel of its own ran in the timed calls";
  if (k.timed_other > 0)
    what += ", only another's (" + std::to_string(k.timed_other) + " launches" +
            (k.top_other.empty() ? "" : ", most of them " + k.top_other.substr(0, 200)) + ")";
  switch (setting) {
    case LibraryOnly::count:
      return;
    case LibraryOnly::correct:
      outcome.library_only = true;
      outcome.message +=
          "; library only: " + what + "; its speedup is left out of fast_p for p > 0 (eval.library_only)";
      return;
    case LibraryOnly::reject:
      outcome.status = Status::rejected;
      outcome.message =
          "library only: " + what + ", and this campaign asks for kernels of its own (eval.library_only: reject)";
      return;
  }
}

std::string quarantine_reason(const std::vector<ResolvedInput>& inputs, const Outcome& outcome, double max_speedup) {
  if (outcome.status != Status::correct || !outcome.timing) return "";
  const Timing& t = *outcome.timing;
  if (max_speedup > 0 && t.speedup > max_speedup)
    return "speedup " + fixed(t.speedup, 1) + "x is above eval.quarantine_speedup (" + fixed(max_speedup, 1) +
           "x); a person accepts it (refinery accept) before it counts toward fast_p";
  const double peak_gbs = outcome.versions.value("peak_bandwidth_gbs", 0.0);
  if (peak_gbs <= 0 || !t.l2_flushed || t.candidate.median_ms <= 0) return "";
  double bytes = 0;
  for (const ResolvedInput& in : inputs)
    if (!in.is_scalar) bytes += static_cast<double>(in.elements()) * dtype_bytes(in.dtype);
  for (const std::string& shape : outcome.output_shapes) bytes += shape_bytes(shape);
  const double floor_ms = bytes / (peak_gbs * 1e9) * 1e3;
  if (t.candidate.median_ms >= floor_ms) return "";
  return "candidate median " + fixed(t.candidate.median_ms, 4) + " ms is below " + fixed(floor_ms, 4) +
         " ms, the time this device needs to read the inputs and write the outputs (" + fixed(bytes / 1e6, 1) +
         " MB) at its peak DRAM bandwidth (" + fixed(peak_gbs, 0) +
         " GB/s) with the cache flushed; a person accepts it (refinery accept) before it counts toward fast_p";
}

}  // namespace eval
