// What a standby judge (eval/worker_launcher.h, "Standbys") saves a Python
// evaluation: one process evaluates the same Python candidate N times
// through two launchers, one without standbys and one with them for the
// backend, and the same ReLU as a C++ candidate (the aim: a Python
// candidate costs under 0.5 s more than a C++ one), in turn (so that a slow
// moment of the machine falls on all alike), correctness only, with GAP
// seconds between evaluations: the time a campaign spends on the model's
// next answer, in which the standby's runner imports torch. Prints, for
// each, the medians of the runner's wait (phases_ms.runner: from the judge's
// first look for the runner's hello to the candidate loaded), of the
// worker's wall time and of the whole evaluation (the compile cache's
// look-up included), and their ratios. The first evaluation with standbys
// finds none and is left out of its medians.
//
//   refinery_bench_python_standby [N] [GAP_S] [BACKEND] [CANDIDATE]
//       (default 6 3 cpu tests/fixtures/python/relu_plain.py, from the source folder; the C++
//        candidate is tests/fixtures/candidates/relu_correct.cpp, or relu_cuda_correct.cu on cuda)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "base/fs.h"
#include "base/subprocess.h"
#include "eval/build/compiler.h"
#include "eval/evaluate.h"
#include "eval/problems/problem_index.h"
#include "eval/worker_launcher.h"

namespace {

double median(std::vector<double> xs) {
  if (xs.empty()) return 0;
  std::sort(xs.begin(), xs.end());
  return xs[xs.size() / 2];
}

struct Figures {
  std::vector<double> runner_s, worker_s, total_s;
  int on_standby = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::max(2, std::atoi(argv[1])) : 6;
  const double gap = argc > 2 ? std::atof(argv[2]) : 3;
  auto backend = eval::parse_backend(argc > 3 ? argv[3] : "cpu");
  if (!backend) return 2;
  const std::string candidate_path = argc > 4 ? argv[4] : "tests/fixtures/python/relu_plain.py";
  auto candidate = base::read_file(candidate_path);
  auto cxx_candidate =
      base::read_file(*backend == eval::Backend::cuda ? "tests/fixtures/candidates/relu_cuda_correct.cu"
                                                      : "tests/fixtures/candidates/relu_correct.cpp");
  auto problem = eval::ProblemIndex(eval::default_problems_root()).find("level1/19");
  if (!candidate || !cxx_candidate || !problem) {
    std::fprintf(stderr, "usage: refinery_bench_python_standby [N] [GAP_S] [cpu|cuda] [CANDIDATE.py]\n");
    return 2;
  }
  base::SystemProcessSpawner spawner;
  eval::CompileOptions co;
  co.cache_dir = base::default_cache_dir();
  eval::CompileService compiler(eval::build_toolchain(), co, spawner);
  eval::LaunchOptions lo;
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  lo.worker_path =
      (std::filesystem::path(std::string(self, std::max<ssize_t>(len, 0))).parent_path() / "refinery-worker").string();
  lo.scratch_dir = co.cache_dir + "/jobs";
  lo.runner_memory_bytes = eval::default_memory_limit();
  lo.standby_backends.clear();
  eval::WorkerLauncher fresh(lo, spawner);
  lo.standby_backends = {*backend};
  eval::WorkerLauncher with_standby(lo, spawner);
  eval::Evaluator fresh_eval(compiler, fresh), standby_eval(compiler, with_standby);

  eval::EvalSettings settings;
  settings.backend = *backend;
  settings.size = *backend == eval::Backend::cpu ? eval::Size::small : eval::Size::full;
  settings.language = eval::LanguageId::python;
  settings.trials = 3;
  settings.timing.enabled = false;
  eval::EvalSettings cxx_settings = settings;
  cxx_settings.language = *backend == eval::Backend::cuda ? eval::LanguageId::cuda_cxx : eval::LanguageId::cxx;
  Figures figures[3];
  for (int k = 0; k < n; ++k) {
    for (int which = 0; which < 3; ++which) {
      const auto t0 = std::chrono::steady_clock::now();
      auto o = which == 2 ? fresh_eval.evaluate(*problem, *cxx_candidate, cxx_settings)
                          : (which == 0 ? fresh_eval : standby_eval).evaluate(*problem, *candidate, settings);
      const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!o || o->status != eval::Status::correct) {
        std::fprintf(stderr, "evaluation failed: %s\n", o ? o->message.c_str() : o.error().message.c_str());
        return 1;
      }
      if (!(which != 0 && k == 0)) {  // the first with standbys finds none; the C++ one's builds
        Figures& f = figures[which];
        f.runner_s.push_back(o->phases_ms.value("runner", 0.0) / 1000);
        f.worker_s.push_back(o->phases_ms.value("worker_wall", 0.0) / 1000);
        f.total_s.push_back(total);
        f.on_standby += o->runner_standby;
      }
      std::this_thread::sleep_for(std::chrono::duration<double>(gap));
    }
  }
  std::printf("%s, level1/19, %s, %d evaluations each, %.1f s apart\n", eval::to_string(*backend).c_str(),
              candidate_path.c_str(), n, gap);
  std::printf("%-18s %6s %9s %10s %10s %10s\n", "launcher", "evals", "standby", "runner s", "worker s", "total s");
  const char* names[] = {"no standbys", "standbys", "C++ candidate"};
  for (int which = 0; which < 3; ++which) {
    const Figures& f = figures[which];
    std::printf("%-18s %6zu %9d %10.3f %10.3f %10.3f\n", names[which], f.runner_s.size(), f.on_standby,
                median(f.runner_s), median(f.worker_s), median(f.total_s));
  }
  std::printf("with standbys: runner's wait x%.2f (%+.3f s), worker x%.2f (%+.3f s), evaluation x%.2f (%+.3f s)\n",
              median(figures[1].runner_s) / median(figures[0].runner_s),
              median(figures[1].runner_s) - median(figures[0].runner_s),
              median(figures[1].worker_s) / median(figures[0].worker_s),
              median(figures[1].worker_s) - median(figures[0].worker_s),
              median(figures[1].total_s) / median(figures[0].total_s),
              median(figures[1].total_s) - median(figures[0].total_s));
  std::printf("Python beyond C++: %+.3f s a worker without standbys, %+.3f s with\n",
              median(figures[0].worker_s) - median(figures[2].worker_s),
              median(figures[1].worker_s) - median(figures[2].worker_s));
  return 0;
}
