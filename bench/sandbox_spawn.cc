// What the compilers' sandbox adds to each compile step, apart from the
// compile itself: runs of `c++ --version` (about the cheapest compiler run)
// spawned as a compile step is, once as refinery's user (the sandbox off) and
// once in the sandbox with a scratch folder and the caps, alternated so that
// both see the same load. Prints the median and 90th percentile wall time of
// each and their difference, in milliseconds; a cold compile runs 1 (g++) or
// 4 (nvcc's plan, host front end, device branch, host compile) such steps.
//
//   refinery_bench_sandbox_spawn [RUNS]   (default 200)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "base/fs.h"
#include "eval/build/compiler.h"
#include "eval/build/compiler_detail.h"

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
  std::vector<double> plain_ms, sandboxed_ms;
  for (int i = 0; i < runs; ++i) {
    for (auto* options : {&plain, &sandboxed}) {
      auto o = eval::detail::compile_spawn(toolchain, *options, {toolchain.cxx, "--version"}, *scratch, {});
      auto r = base::run_process(o);
      if (!r || !r->exited_ok()) {
        std::fprintf(stderr, "run failed: %s\n", r ? r->err.c_str() : r.error().message.c_str());
        return 1;
      }
      (options == &plain ? plain_ms : sandboxed_ms).push_back(r->wall_seconds * 1000);
    }
  }
  std::filesystem::remove_all(*scratch);
  const double p50 = percentile(plain_ms, 0.5), s50 = percentile(sandboxed_ms, 0.5);
  std::printf(
      "%d runs of %s --version: plain median %.2f ms (p90 %.2f), sandboxed median %.2f ms (p90 %.2f): "
      "+%.2f ms per step\n",
      runs, toolchain.cxx.c_str(), p50, percentile(plain_ms, 0.9), s50, percentile(sandboxed_ms, 0.9), s50 - p50);
  return 0;
}
