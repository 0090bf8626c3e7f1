#include <doctest/doctest.h>

#include "eval/verdict/speed_of_light.h"

using eval::gpu_peaks;
using eval::speed_of_light;

namespace {
eval::Problem matmul(eval::DType dtype) {
  eval::Problem p;
  p.id = "level1/1";
  eval::InputSpec a;
  a.name = "A";
  a.dtype = dtype;
  p.inputs = {a};
  p.sizes = {{"full", {{"N", 4096}}}, {"small", {{"N", 256}}}};
  p.flops = "2*N*N*N";
  p.bytes = "4*3*N*N";
  return p;
}
}  // namespace

TEST_SUITE("eval::speed_of_light") {
  TEST_CASE("CUDA's device names find their rows, the more specific first") {
    CHECK(gpu_peaks("NVIDIA H100 80GB HBM3")->name == "H100 SXM");
    CHECK(gpu_peaks("NVIDIA H100 PCIe")->name == "H100 PCIe");
    CHECK(gpu_peaks("NVIDIA H100 NVL")->name == "H100 NVL");
    CHECK(gpu_peaks("NVIDIA H200")->name == "H200 SXM");
    CHECK(gpu_peaks("NVIDIA A100-SXM4-80GB")->name == "A100 SXM 80GB");
    CHECK(gpu_peaks("NVIDIA A100-SXM4-40GB")->name == "A100 SXM 40GB");
    CHECK(gpu_peaks("NVIDIA L40S")->name == "L40S");
    CHECK(gpu_peaks("NVIDIA B200")->name == "B200 (HGX, 1000 W)");
    CHECK_FALSE(gpu_peaks("NVIDIA GeForce GTX 1080"));
    for (const auto& row : eval::gpu_peak_table()) {
      CHECK(row.fp32_tflops > 0);
      CHECK(row.half_tflops > row.fp32_tflops);
      CHECK(row.memory_tbps > 0);
      CHECK_FALSE(row.source.empty());
    }
  }

  TEST_CASE("the bound is the larger of compute and memory time, at the dtype's peak") {
    // fp32 at 4096: 2*4096^3 = 1.374e11 FLOPs / 67e12 = 2.05 ms; 201 MB / 3.35 TB/s = 0.06 ms.
    auto sol = speed_of_light(matmul(eval::DType::float32), eval::Size::full, "NVIDIA H100 80GB HBM3");
    REQUIRE(sol.bound_ms);
    CHECK(*sol.bound_ms == doctest::Approx(2.0 * 4096.0 * 4096 * 4096 / 67e12 * 1e3));
    CHECK(sol.precision == "fp32");
    // bf16 takes the tensor-core peak: compute drops below memory? 0.139 ms against 0.06 ms: still compute.
    auto half = speed_of_light(matmul(eval::DType::bfloat16), eval::Size::full, "NVIDIA H100 80GB HBM3");
    CHECK(half.precision == "half");
    CHECK(*half.bound_ms == doctest::Approx(2.0 * 4096.0 * 4096 * 4096 / 989.4e12 * 1e3));
    // The H200's memory is faster, its compute the same.
    auto h200 = speed_of_light(matmul(eval::DType::float32), eval::Size::full, "NVIDIA H200");
    CHECK(*h200.bound_ms == doctest::Approx(*sol.bound_ms));
    // A memory-bound shape: no FLOPs declared.
    auto copy = matmul(eval::DType::float32);
    copy.flops.clear();
    auto mem = speed_of_light(copy, eval::Size::full, "NVIDIA H200");
    CHECK(*mem.bound_ms == doctest::Approx(4.0 * 3 * 4096 * 4096 / 4.8e12 * 1e3));
  }

  TEST_CASE("no bound, and a note saying why, for an unknown GPU or undeclared work") {
    auto unknown = speed_of_light(matmul(eval::DType::float32), eval::Size::full, "Some GPU");
    CHECK_FALSE(unknown.bound_ms);
    CHECK(unknown.note.find("no peaks for GPU 'Some GPU'") != std::string::npos);
    auto none = matmul(eval::DType::float32);
    none.flops.clear();
    none.bytes.clear();
    auto undeclared = speed_of_light(none, eval::Size::full, "NVIDIA H100 80GB HBM3");
    CHECK_FALSE(undeclared.bound_ms);
    CHECK(undeclared.note == "level1/1 declares no flops or bytes");
  }
}
