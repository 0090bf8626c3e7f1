// Profiles on a real GPU: CUPTI's activity records and counters for a known
// kernel (the vectorised ReLU: one launch, known grid and block, 8 bytes of
// DRAM traffic per element), checked against nvcc -Xptxas -v for registers,
// and against a real ncu run of the same evaluation through the ncu adapter.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <regex>

#include "base/fs.h"
#include "base/subprocess.h"
#include "eval/build/shim.h"
#include "eval/problems/problem_index.h"
#include "gpu/gpu_support.h"
#include "profiler/summary.h"
#include "test_support.h"

using eval::Status;
using test_support::fixture;

namespace {

test_support::RealEvaluator& cuda() {
  static test_support::RealEvaluator evaluator(eval::Backend::cuda, 300, gpu_support::probe().arch);
  return evaluator;
}

eval::Outcome profiled(const std::string& tool) {
  cuda().settings.size = eval::Size::full;
  cuda().settings.profile = {*eval::parse_profiler(tool), profiler::default_metrics()};
  cuda().settings.ncu_path = base::find_on_path("ncu");
  auto o = cuda().run("level1/19", fixture("relu_cuda_correct.cu"));
  cuda().settings.profile = {};
  return o;
}

// Registers of the kernel whose mangled name contains `kernel`, from the
// candidate's own nvcc command rerun with -Xptxas -v on the same source (the
// candidate and the shim, written where the command expects them).
int ptxas_registers(const std::string& command, const std::string& source, const std::string& kernel) {
  test_support::TempDir dir("refinery-ptxas");
  std::smatch file;
  REQUIRE_MESSAGE(std::regex_search(command, file, std::regex("([^ ']+/candidate\\.cu)")), command);
  auto problem = eval::ProblemIndex(eval::default_problems_root()).find("level1/19");
  REQUIRE(problem.ok());
  std::filesystem::create_directories(std::filesystem::path(file[1].str()).parent_path());
  REQUIRE(base::write_file(file[1].str(), source + "\n#line 1 \"refinery_shim\"\n" + eval::make_shim(*problem)).ok());
  std::string cmd = std::regex_replace(command, std::regex(" -o ('[^']*'|[^ ]+)"), " -o " + dir.path + "/ptxas.so");
  base::SpawnOptions o;
  o.argv = {"/bin/sh", "-c", cmd + " -Xptxas -v"};
  o.env = eval::current_environment();
  o.timeout_seconds = 300;
  o.output_cap_bytes = 1 << 20;
  auto r = base::run_process(o);
  REQUIRE(r.ok());
  std::string log = r->out + r->err;
  size_t entry = log.find("Compiling entry function '");
  while (entry != std::string::npos) {
    size_t end = log.find('\'', entry + 26);
    if (log.substr(entry + 26, end - entry - 26).find(kernel) != std::string::npos) {
      std::smatch m;
      std::string rest = log.substr(end);
      if (std::regex_search(rest, m, std::regex("Used (\\d+) registers"))) return std::stoi(m[1]);
    }
    entry = log.find("Compiling entry function '", end);
  }
  FAIL("no ptxas line for ", kernel, " in:\n", log);
  return -1;
}

double metric(const profiler::KernelRecord& k, const std::string& name) {
  auto it = k.metrics.find(name);
  return it == k.metrics.end() ? std::nan("") : it->second;
}

}  // namespace

TEST_SUITE("profile, cuda backend") {
  TEST_CASE("cupti: launch shapes and registers match nvcc -Xptxas -v, and DRAM traffic matches the bytes moved") {
    auto o = profiled("cupti");
    REQUIRE_MESSAGE(o.status == Status::correct, o.message);
    REQUIRE(o.profile.has_value());
    const auto& p = *o.profile;
    CHECK(p.tool == "cupti");
    CHECK_MESSAGE(p.counters, p.counters_note);
    REQUIRE(p.candidate.kernels.size() == 1);  // the element count is a multiple of 4: no tail kernel
    const auto& k = p.candidate.kernels[0];
    CHECK(k.name.find("relu_vec4") != std::string::npos);
    CHECK(k.block[0] == 256);
    CHECK(k.block[1] == 1);
    CHECK(k.grid[0] == p.device.sm_count * 8);  // the fixture caps the grid at 8 blocks per SM
    CHECK(k.registers == ptxas_registers(o.compile->command, fixture("relu_cuda_correct.cu"), "relu_vec4"));
    CHECK(k.local_mem == 0);
    CHECK_FALSE(p.reference.kernels.empty());
    CHECK(p.bytes > 0);
    // DRAM bytes = throughput x duration: the kernel reads and writes each element once.
    const double dram =
        metric(k, profiler::metric::dram_bytes_per_second) * metric(k, profiler::metric::duration) / 1e9;
    CHECK_MESSAGE(std::abs(dram - p.bytes) / p.bytes < 0.10, "dram bytes ", dram, " vs declared ", p.bytes);
    MESSAGE("registers ", k.registers, ", grid ", k.grid[0], ", ", k.duration_us, " us, profiling added ",
            p.overhead_ms, " ms\n", profiler::summarize(p));
  }

  TEST_CASE("ncu: the adapter parses a real ncu run of the judge; the sandboxed candidate is out of its reach") {
    if (base::find_on_path("ncu").empty()) {
      MESSAGE("ncu is not on PATH; the ncu adapter is not checked here");
      return;
    }
    auto by_ncu = profiled("ncu");
    REQUIRE_MESSAGE(by_ncu.status == Status::correct, by_ncu.message);
    REQUIRE(by_ncu.profile.has_value());
    const auto& n = *by_ncu.profile;
    REQUIRE_MESSAGE(n.tool == "ncu", n.counters_note);
    REQUIRE_FALSE_MESSAGE(n.reference.kernels.empty(), n.counters_note);
    CHECK(n.candidate.kernels.empty());
    CHECK(n.counters_note.find("out of ncu's reach") != std::string::npos);
    auto by_cupti = profiled("cupti");
    REQUIRE(by_cupti.profile.has_value());
    REQUIRE_FALSE(by_cupti.profile->reference.kernels.empty());
    const auto& c = by_cupti.profile->reference.kernels.front();
    const auto& k = n.reference.kernels.front();
    CHECK(k.registers == c.registers);
    CHECK(k.grid[0] == c.grid[0]);
    CHECK(k.block[0] == c.block[0]);
    MESSAGE("reference kernel: cupti activity ", c.duration_us, " us, ncu ", k.duration_us, " us; ncu run added ",
            n.overhead_ms, " ms");
  }
}
