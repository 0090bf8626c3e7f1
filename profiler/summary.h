// The profile summary: what a model reads about where its kernel's time went,
// next to the reference's. Turns an profiler::Profile (kernel records, counters,
// device limits) into a few lines of plain text: per side, the kernels that
// take the most time with their launch shapes, resources, occupancy and
// speed-of-light reading, then a roofline for the whole call. The text stays
// within a byte budget, dropping the least useful detail first. Used by the
// feedback prompt and by `refinery eval --profile`.
// Pure functions of their arguments; the output is deterministic, so it can be
// compared with golden files. Safe from any thread.
#pragma once

#include <cstddef>
#include <string>

#include "profiler/profile.h"

namespace profiler {

struct SummaryOptions {
  size_t budget_bytes = 3000;  // the whole section stays within this
  int max_kernels = 4;         // per side, the kernels that take the most time
};

// Theoretical occupancy of a launch, in percent: active warps per SM against
// d.max_warps_per_sm, limited by warps per block, registers (allocated per
// warp in units of 256: ceil(regs * 32 / 256) * 256), shared memory (static +
// dynamic + 1 KiB reserved per block, against d.smem_per_sm) and
// d.max_blocks_per_sm. `limiter`, when given, receives "warps", "registers",
// "shared memory" or "blocks". 0 when the block cannot fit at all.
double theoretical_occupancy(const profiler::KernelRecord& k, const profiler::DeviceLimits& d,
                             std::string* limiter = nullptr);

// The profile section of a feedback prompt, without a trailing newline. Never
// longer than o.budget_bytes; when trimmed, it ends with "[profile trimmed]".
std::string summarize(const profiler::Profile& p, const SummaryOptions& o = {});

// A demangled kernel name cut to about max_chars: the parameter list, then
// the template arguments are elided as "..." before a plain cut.
std::string shorten_kernel_name(const std::string& name, size_t max_chars = 90);

}  // namespace profiler
