// What the compilers' sandbox adds to each compile step, apart from the
// compile itself: runs of `c++ --version` (about the cheapest compiler run)
// spawned as a compile step is, as refinery's user (the sandbox off), in the
// sandbox without a memory cgroup, and in the sandbox with its cgroup (made,
// joined and removed per step; where the host allows none, the third is the
// second again), alternated so that all see the same load. Each is timed
// over the whole run_process call, the cgroup's removal included. Prints the
// median and 90th percentile wall time of each and the differences, in
// milliseconds; a cold compile runs 1 (g++) or 4 (nvcc's plan, host front
// end, device branch, host compile) such steps.
//
//   refinery_bench_sandbox_spawn [RUNS]   (default 200)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include "base/cgroup.h"
#include "base/fs.h"
#include "eval/build/compiler.h"
#include "eval/build/compiler_detail.h"
#include "eval/sandbox/sandbox.h"

namespace {

double percentile(std::vector<double> xs, double p) {
  std::sort(xs.begin(), xs.end());
  return xs[static_cast<size_t>(p * static_cast<double>(xs.size() - 1))];
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 200;
  const eval::Toolchain toolchain = eval::build_toolchain();
  auto scratch = base::make_temp_dir(std::filesystem::temp_directory_path().string(), "refinery-spawn-bench");
  if (!scratch) {
    std::fprintf(stderr, "%s\n", scratch.error().message.c_str());
    return 1;
  }
  eval::CompileOptions plain, sandboxed;
  plain.sandbox.enabled = false;
  const std::vector<std::string> version = {toolchain.cxx, "--version"};
  std::vector<base::SpawnOptions> spawns = {eval::detail::compile_spawn(toolchain, plain, version, *scratch, {}),
                                            eval::detail::compile_spawn(toolchain, sandboxed, version, *scratch, {}),
                                            eval::detail::compile_spawn(toolchain, sandboxed, version, *scratch, {})};
  const auto& view = dynamic_cast<const eval::SandboxStarter&>(*spawns[2].start).view();
  spawns[1].start = std::make_shared<eval::SandboxStarter>(view, 0);  // no cgroup
  std::vector<std::vector<double>> ms(spawns.size());
  for (int i = 0; i < runs; ++i) {
    for (size_t k = 0; k < spawns.size(); ++k) {
      const auto start = std::chrono::steady_clock::now();
      auto r = base::run_process(spawns[k]);
      const auto end = std::chrono::steady_clock::now();
      if (!r || !r->exited_ok()) {
        std::fprintf(stderr, "run failed: %s\n", r ? r->err.c_str() : r.error().message.c_str());
        return 1;
      }
      ms[k].push_back(std::chrono::duration<double, std::milli>(end - start).count());
    }
  }
  std::filesystem::remove_all(*scratch);
  const char* names[] = {"plain", "sandboxed", "sandboxed with its memory cgroup"};
  std::printf("%d runs of %s --version", runs, toolchain.cxx.c_str());
  for (size_t k = 0; k < ms.size(); ++k)
    std::printf(", %s median %.2f ms (p90 %.2f)", names[k], percentile(ms[k], 0.5), percentile(ms[k], 0.9));
  const double p50 = percentile(ms[0], 0.5), s50 = percentile(ms[1], 0.5), c50 = percentile(ms[2], 0.5);
  std::printf(": +%.2f ms per step for the sandbox, +%.2f ms more for its cgroup", s50 - p50, c50 - s50);
  if (base::cgroup_parent().path.empty()) std::printf(" (none here: %s)", base::cgroup_parent().why_not.c_str());
  std::printf("\n");
  return 0;
}
