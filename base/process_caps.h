// Caps on what one run of a tool (a compiler, a build step) may take, as
// resource limits, and which cap a finished run hit.
//
// limits() turns the caps into the rlimits a SpawnOptions carries; every
// process of the run is held to each on its own (a memory cgroup, where the
// run's starter gives it one, holds all of them together to the memory cap:
// eval/sandbox/sandbox.h). exceeded_cap() reads a finished run (its
// cgroup's OOM kills, its signal, its CPU time and what the tool printed:
// gcc, as, ld, nvcc and its cicc, Python) and names the cap it hit, so that a
// caller can report it ("the compile exceeded its memory cap (4 GiB)") and
// treat it as the input's fault, not the machine's. Pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/subprocess.h"

namespace base {

struct ProcessCaps {
  uint64_t memory_bytes = 6ull << 30;  // RLIMIT_AS of each process; 0: none
  double cpu_seconds = 240;            // RLIMIT_CPU of each process (SIGXCPU, then SIGKILL 5 s later); 0: none
  uint64_t file_bytes = 256ull << 20;  // RLIMIT_FSIZE: the largest file written (an object, a library); 0: none
  unsigned processes = 512;            // RLIMIT_NPROC; 0: none
  // memory_bytes as RLIMIT_DATA (the private writable memory a process maps:
  // its heap, anonymous mappings) rather than RLIMIT_AS: for a process that
  // uses CUDA, whose driver reserves address space far beyond what it uses
  // and fails its initialisation under RLIMIT_AS.
  bool private_memory_only = false;
};

std::vector<ResourceLimit> limits(const ProcessCaps& caps);

// One line naming the caps, for a cache key or a record:
// "memory 6 GiB, cpu 240 s, file 256 MiB, processes 512" ("private memory
// 6 GiB, ..." with private_memory_only).
std::string describe(const ProcessCaps& caps);

// "memory cap (6 GiB)", "CPU time cap (240 s)" or "file size cap (256 MiB)"
// when the run ended because it hit one, "memory cap (6 GiB, its cgroup's
// OOM killer)" when its memory cgroup's OOM killer ended a process of it;
// nullopt otherwise (it succeeded, failed for another reason, or was killed
// by its deadline).
std::optional<std::string> exceeded_cap(const ProcessResult& result, const ProcessCaps& caps);

}  // namespace base
