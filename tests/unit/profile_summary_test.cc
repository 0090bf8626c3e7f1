#include <doctest/doctest.h>

#include "agent/campaign/prompt.h"
#include "base/fs.h"
#include "base/text.h"
#include "profiler/summary.h"
#include "test_support.h"

namespace {

using test_support::check_golden;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string stall(const std::string& reason) {
  return std::string(profiler::metric::stall_prefix) + reason + profiler::metric::stall_suffix;
}

// An H200's limits: 132 SMs x 128 FP32 lanes x 2 x 1.98 GHz, HBM3e at 4.8 TB/s.
profiler::DeviceLimits h200() {
  profiler::DeviceLimits d;
  d.name = "NVIDIA H200";
  d.sm_count = 132;
  d.peak_fp32_tflops = 66.9;
  d.peak_dram_tbps = 4.8;
  return d;
}

profiler::KernelRecord kernel(const std::string& name, double us, int grid_x, int block_x, int registers) {
  profiler::KernelRecord k;
  k.name = name;
  k.duration_us = us;
  k.grid[0] = grid_x;
  k.block[0] = block_x;
  k.registers = registers;
  return k;
}

// A launch of block_x threads for the occupancy tests.
profiler::KernelRecord launch(int block_x, int registers, int dynamic_smem = 0) {
  auto k = kernel("k", 1, 1, block_x, registers);
  k.dynamic_smem = dynamic_smem;
  return k;
}

const std::string kAtAdd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
    "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
    "at::detail::Array<char*, 3>)";

// (a) c = a + b on 2^24 floats: a memory-bound kernel of the candidate's own
// against PyTorch's one vectorised kernel, with the work declared.
profiler::Profile elementwise_profile() {
  profiler::Profile p;
  p.tool = "ncu";
  p.counters = true;
  p.device = h200();
  p.flops = 16777216;            // one add per element
  p.bytes = 3 * 4 * 16777216.0;  // read a and b, write c
  auto add = kernel("add_kernel(float const*, float const*, float*, int)", 46.0, 65536, 256, 16);
  add.metrics = {{profiler::metric::sm_throughput, 31.2},
                 {profiler::metric::memory_throughput, 92.8},
                 {profiler::metric::dram_bytes_per_second, 4.38e12},
                 {profiler::metric::dram_throughput, 91.3},
                 {profiler::metric::achieved_occupancy, 88.6},
                 {profiler::metric::l1_hit_rate, 0},
                 {profiler::metric::l2_hit_rate, 33.4},
                 {stall("long_scoreboard"), 14.21},
                 {stall("wait"), 0.93},
                 {stall("not_selected"), 0.35},
                 {stall("barrier"), 0}};
  p.candidate.kernels = {add};
  auto ref = kernel(kAtAdd, 48.5, 16384, 128, 26);
  ref.metrics = {{profiler::metric::sm_throughput, 24.0},
                 {profiler::metric::memory_throughput, 88.1},
                 {profiler::metric::dram_bytes_per_second, 4.15e12},
                 {profiler::metric::achieved_occupancy, 81.0},
                 {profiler::metric::l2_hit_rate, 33.3},
                 {stall("long_scoreboard"), 11.5},
                 {stall("lg_throttle"), 2.25}};
  p.reference.kernels = {ref};
  return p;
}

// (b) A three-kernel softmax: one kernel launched three times, one spilling
// with occupancy limited by registers, one launched with two shapes.
profiler::Profile softmax_profile() {
  profiler::Profile p;
  p.tool = "ncu";
  p.counters = true;
  p.device = h200();
  const std::string max_name = "softmax_reduce_max(float const*, float*, int)";
  double sm[] = {10, 14, 12}, us[] = {10, 12, 11};
  for (int i = 0; i < 3; ++i) {
    auto k = kernel(max_name, us[i], 4096, 256, 32);
    k.static_smem = 1024;
    k.metrics = {{profiler::metric::sm_throughput, sm[i]}, {profiler::metric::memory_throughput, 20}};
    p.candidate.kernels.push_back(k);
  }
  // 168 registers: 5376 per warp, 12 warps per SM, 3 blocks of 4 warps: 18.75%.
  auto exp_sum = kernel("softmax_exp_sum(float const*, float const*, float*, int)", 40, 4096, 128, 168);
  exp_sum.local_mem = 64;
  exp_sum.dynamic_smem = 49152;
  exp_sum.metrics = {{profiler::metric::sm_throughput, 78.4},
                     {profiler::metric::memory_throughput, 41.0},
                     {profiler::metric::achieved_occupancy, 17.9},
                     {stall("math_pipe_throttle"), 3.1},
                     {stall("short_scoreboard"), 1.2},
                     {stall("long_scoreboard"), 0.8},
                     {stall("wait"), 1.2}};
  p.candidate.kernels.push_back(exp_sum);
  auto normalize = kernel("softmax_normalize(float*, float const*, int)", 9, 4096, 256, 24);
  p.candidate.kernels.push_back(normalize);
  normalize.grid[0] = 2048;
  normalize.duration_us = 6;
  p.candidate.kernels.push_back(normalize);
  p.candidate.memory = {{"memcpy DtoD", 4 << 20, 3.1}, {"memset", 4096, 1.2}, {"memset", 4096, 1.1}};
  p.reference.kernels = {
      kernel("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
             "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
             30.5, 4096, 1024, 40)};
  return p;
}

// (c) Counters refused: launch statistics only.
profiler::Profile no_counters_profile() {
  profiler::Profile p;
  p.tool = "cupti";
  p.counters = false;
  p.counters_note =
      "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: the driver restricts GPU performance counters to admin "
      "users";
  p.device = h200();
  p.candidate.kernels = {kernel("relu_kernel(float const*, float*, long)", 1250, 8192, 512, 12)};
  p.reference.kernels = {
      kernel("void at::native::vectorized_elementwise_kernel<4, "
             "at::native::clamp_min_scalar_kernel_impl>(int)",
             1320, 8192, 128, 20)};
  return p;
}

}  // namespace

TEST_SUITE("profiler::theoretical_occupancy") {
  TEST_CASE("a small block with few registers fills the SM") {
    // 8 warps a block: 8 blocks by warps (64 / 8); 32 regs x 32 = 1024 a warp, 64 warps, 8 blocks.
    std::string limiter;
    CHECK(profiler::theoretical_occupancy(launch(256, 32), h200(), &limiter) == 100.0);
    CHECK(limiter == "warps");
  }

  TEST_CASE("many registers limit the warps") {
    // 128 x 32 = 4096 registers a warp; 65536 / 4096 = 16 warps = 2 blocks of 8: 16 / 64 = 25%.
    std::string limiter;
    CHECK(profiler::theoretical_occupancy(launch(256, 128), h200(), &limiter) == 25.0);
    CHECK(limiter == "registers");
    // 255 x 32 = 8160, rounded up to 8192 a warp; 8 warps = 1 block of 8: 12.5%.
    CHECK(profiler::theoretical_occupancy(launch(256, 255), h200(), &limiter) == 12.5);
    // 3 warps a block, 40 x 32 = 1280 a warp; 65536 / 1280 = 51 warps = 17 blocks: 51 / 64.
    CHECK(profiler::theoretical_occupancy(launch(96, 40), h200(), &limiter) == 100.0 * 51 / 64);
    CHECK(limiter == "registers");
  }

  TEST_CASE("shared memory counts the reserved kilobyte per block") {
    // 1024 threads, 48 KiB: 233472 / (49152 + 1024) = 4 blocks, but 2 by warps (64 / 32): 100%.
    std::string limiter;
    CHECK(profiler::theoretical_occupancy(launch(1024, 32, 49152), h200(), &limiter) == 100.0);
    CHECK(limiter == "warps");
    // 128 threads, 100 KiB: 233472 / (102400 + 1024) = 2 blocks of 4 warps: 8 / 64 = 12.5%.
    CHECK(profiler::theoretical_occupancy(launch(128, 32, 102400), h200(), &limiter) == 12.5);
    CHECK(limiter == "shared memory");
  }

  TEST_CASE("one-warp blocks stop at the block limit") {
    // 32 blocks of 1 warp: 32 / 64 = 50%.
    std::string limiter;
    CHECK(profiler::theoretical_occupancy(launch(32, 16), h200(), &limiter) == 50.0);
    CHECK(limiter == "blocks");
  }

  TEST_CASE("a block that cannot fit has no occupancy") {
    std::string limiter;
    CHECK(profiler::theoretical_occupancy(launch(256, 32, 240000), h200(), &limiter) == 0.0);
    CHECK(limiter == "shared memory");
    CHECK(profiler::theoretical_occupancy(launch(4096, 32), h200(), &limiter) == 0.0);
    CHECK(limiter == "warps");
    CHECK(profiler::theoretical_occupancy(launch(256, 32), h200()) == 100.0);  // no limiter asked for
  }
}

TEST_SUITE("profiler::summarize") {
  TEST_CASE("a memory-bound elementwise kernel against PyTorch's, with the roofline") {
    check_golden("profile_elementwise.txt", profiler::summarize(elementwise_profile()));
  }

  TEST_CASE("launches of one kernel are aggregated and ranked by time") {
    auto text = profiler::summarize(softmax_profile());
    check_golden("profile_softmax.txt", text);
    // 10 x 10 + 14 x 12 + 12 x 11 over 33 us: 12.1%.
    CHECK(contains(text, "neither SM (12%) nor memory (20%) is busy: latency- or launch-bound"));
    CHECK(contains(text, "3 launches, 33.0 us"));
    CHECK(contains(text, "spills 64 B/thread; occupancy 19% theoretical (limited by registers), 18% achieved"));
    CHECK(contains(text, "grid (4096,1,1) block (256,1,1), shapes vary"));
  }

  TEST_CASE("kernels beyond max_kernels are counted on one line") {
    profiler::SummaryOptions o;
    o.max_kernels = 1;
    auto text = profiler::summarize(softmax_profile(), o);
    CHECK(contains(text, "  (2 more kernels: 55% of the kernel time, 5 launches)"));
    CHECK_FALSE(contains(text, "softmax_normalize"));
  }

  TEST_CASE("missing counters are said with the reason") {
    check_golden("profile_no_counters.txt", profiler::summarize(no_counters_profile()));
  }

  TEST_CASE("a note beside collected counters is shown") {
    auto p = elementwise_profile();
    p.counters_note = "the device lacks lts__t_sector_hit_rate.pct";
    CHECK(contains(profiler::summarize(p), "\nHardware counters: the device lacks lts__t_sector_hit_rate.pct\n"));
  }

  TEST_CASE("a candidate of library kernels only is called out") {
    auto p = no_counters_profile();
    p.candidate.kernels = {kernel("ampere_sgemm_128x64_nn", 80, 64, 256, 122), p.reference.kernels[0]};
    auto text = profiler::summarize(p);
    CHECK(contains(
        text,
        "\nNone of them is a kernel of your own: your code only called library kernels (PyTorch, cuBLAS, ...).\n"));
    p.candidate.kernels.push_back(kernel("my_epilogue(float*)", 3, 1, 32, 8));
    CHECK_FALSE(contains(profiler::summarize(p), "only library kernels"));
  }

  TEST_CASE("a candidate without kernels says so") {
    auto p = no_counters_profile();
    p.candidate.kernels.clear();
    p.candidate.memory = {{"memcpy DtoH", 1024, 2.0}};
    auto text = profiler::summarize(p);
    CHECK(contains(text,
                   "\nYour code launched no GPU kernel.\n  Memory operations: 1 (1 memcpy DtoH), "
                   "1.0 KiB, 2.0 us\n"));
    CHECK_FALSE(contains(text, "only library kernels"));
  }

  TEST_CASE("a large profile loses detail in order, then is cut, within the budget") {
    profiler::Profile p = softmax_profile();
    for (int i = 0; i < 12; ++i) {
      auto k = p.candidate.kernels[3];  // softmax_exp_sum, with counters and stalls
      k.name = "void fused_stage_" + std::to_string(i) + "<float, 128, 64, " + std::string(80, 'T') + ">(float*)";
      k.duration_us = 50 + i;
      p.candidate.kernels.push_back(k);
      k.name = "reference_stage_" + std::to_string(i);
      p.reference.kernels.push_back(k);
    }
    std::string full = profiler::summarize(p, {100000, 4});
    CHECK(contains(full, "  4. void fused_stage_8<"));
    CHECK(contains(full, "  2. reference_stage_10"));
    // First the reference's kernels beyond the first go.
    std::string level1 = profiler::summarize(p, {full.size() - 1, 4});
    CHECK(contains(level1, "  1. reference_stage_11"));
    CHECK_FALSE(contains(level1, "  2. reference_stage_10"));
    CHECK(contains(level1, "  4. void fused_stage_8<"));
    CHECK(contains(level1, "top warp stalls"));
    // Then the stall lines.
    std::string level2 = profiler::summarize(p, {level1.size() - 1, 4});
    CHECK_FALSE(contains(level2, "top warp stalls"));
    CHECK(contains(level2, "  4. void fused_stage_8<"));
    // Then the candidate's kernels beyond two.
    std::string level3 = profiler::summarize(p, {level2.size() - 1, 4});
    CHECK(contains(level3, "  2. void fused_stage_10<"));
    CHECK_FALSE(contains(level3, "  3. "));
    CHECK(contains(level3, "  (13 more kernels: "));
    CHECK_FALSE(contains(level3, "[profile trimmed]"));
    // Then a cut at a line, marked.
    std::string cut = profiler::summarize(p, {level3.size() - 1, 4});
    CHECK(cut.size() <= level3.size() - 1);
    CHECK(base::starts_with(cut, "Profile (ncu, NVIDIA H200):\n"));
    CHECK(base::ends_with(cut, "\n[profile trimmed]"));
    CHECK(level3.find(cut.substr(0, cut.size() - 18)) == 0);
    for (size_t budget : {0, 5, 17, 18, 40, 200, 600, 1000, 1500, 2000, 3000}) {
      std::string text = profiler::summarize(p, {budget, 4});
      CHECK(text.size() <= budget);
    }
    CHECK(profiler::summarize(p).size() <= 3000);
  }

  TEST_CASE("long kernel names keep the function name") {
    CHECK(profiler::shorten_kernel_name("add(float*)") == "add(float*)");
    // The parameters go first, then the template arguments are cut to fit in 90.
    CHECK(profiler::shorten_kernel_name(kAtAdd) ==
          "void at::native::vectorized_elementwise_kernel<4, "
          "at::native::CUDAFunctor_add<flo...>(...)");
    CHECK(profiler::shorten_kernel_name(kAtAdd).size() == 90);
    std::string longer = "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4<" +
                         std::string(60, 'x') + ">>(Params)";
    CHECK(profiler::shorten_kernel_name(longer) ==
          "void "
          "cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4<xxxxxx...>(...)");
    std::string short_params = "void k<" + std::string(70, 'y') + ">(float*, float*, float*, float*, int, int)";
    CHECK(profiler::shorten_kernel_name(short_params) == "void k<" + std::string(70, 'y') + ">(...)");
    std::string plain(120, 'a');
    CHECK(profiler::shorten_kernel_name(plain) == std::string(87, 'a') + "...");
  }
}

TEST_SUITE("agent::prompt") {
  TEST_CASE("feedback with the profile kind includes the profile summary") {
    auto templates = agent::PromptTemplates::load(test_support::fixture_prompts_dir());
    REQUIRE(templates.ok());
    eval::Outcome o;
    o.status = eval::Status::correct;
    o.message = "correct; speedup 1.054x";
    o.timing = eval::Timing{};
    o.timing->candidate.median_ms = 0.046;
    o.timing->reference.median_ms = 0.0485;
    o.timing->speedup = 1.054;
    o.profile = elementwise_profile();
    auto with = agent::render_feedback(*templates, o, {"timing", "profile"}, 2);
    REQUIRE(with.ok());
    CHECK(contains(*with, "## Profile\n"));
    CHECK(contains(*with, profiler::summarize(*o.profile)));
    auto without = agent::render_feedback(*templates, o, {"timing"}, 2);
    REQUIRE(without.ok());
    CHECK_FALSE(contains(*without, "## Profile"));
    CHECK_FALSE(contains(*without, "Profile (ncu"));
    o.profile.reset();
    auto absent = agent::render_feedback(*templates, o, {"timing", "profile"}, 2);
    REQUIRE(absent.ok());
    CHECK_FALSE(contains(*absent, "## Profile"));
  }
}
