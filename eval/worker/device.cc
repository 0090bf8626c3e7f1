#include "eval/worker/device.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>
#include <vector>

#include "build_info.h"

#if REFINERY_WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <cuda_runtime.h>
#endif

namespace eval::worker {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

nlohmann::json common_versions() {
  return {{"refinery", REFINERY_VERSION},
          {"libtorch", TORCH_VERSION},
          {"cpu", cpu_model()},
          {"cpu_threads", at::get_num_threads()}};
}

class CpuDevice : public Device {
 public:
  explicit CpuDevice(int threads) {
    if (threads > 0) at::set_num_threads(threads);
    flush_buffer_.assign(64 << 20, 0);
  }
  base::Status synchronize() override { return {}; }
  void flush_cache() override {
    ++flush_value_;
    for (size_t i = 0; i < flush_buffer_.size(); i += 64) flush_buffer_[i] = flush_value_;
  }
  base::Result<CallTime> time_call(const std::function<base::Status()>& call) override {
    auto t0 = Clock::now();
    TRY(call());
    double ms = ms_since(t0);
    return CallTime{ms, ms, ms};
  }
  std::string clock_name() const override { return "steady_clock"; }
  nlohmann::json describe() const override {
    auto j = common_versions();
    j["device"] = "cpu";
    return j;
  }

 private:
  std::vector<char> flush_buffer_;
  char flush_value_ = 0;
};

#if REFINERY_WITH_CUDA
#define CUDA_CHECK(call)                                                                                         \
  do {                                                                                                           \
    cudaError_t e_ = (call);                                                                                     \
    if (e_ != cudaSuccess)                                                                                       \
      return base::Error{std::string(#call) + " failed at " + __FILE__ + ":" + std::to_string(__LINE__) + ": " + \
                         cudaGetErrorString(e_)};                                                                \
  } while (0)

// The caching allocator's snapshot: its segments (LibTorch 2) or itself (1.13).
template <class Snapshot>
const auto& segments_of(const Snapshot& snapshot) {
  if constexpr (requires { snapshot.segments; })
    return snapshot.segments;
  else
    return snapshot;
}
template <class Segment>
bool expandable(const Segment& segment) {
  if constexpr (requires { segment.is_expandable; })
    return segment.is_expandable;
  else
    return false;
}

class CudaDevice : public Device {
 public:
  static base::Result<std::unique_ptr<Device>> create(int ordinal) {
    auto d = std::unique_ptr<CudaDevice>(new CudaDevice());
    CUDA_CHECK(cudaSetDevice(ordinal));
    d->ordinal_ = ordinal;
    CUDA_CHECK(cudaGetDeviceProperties(&d->props_, ordinal));
    d->flush_bytes_ = static_cast<size_t>(d->props_.l2CacheSize) * 2;
    if (d->flush_bytes_ == 0) d->flush_bytes_ = 128 << 20;
    CUDA_CHECK(cudaMalloc(&d->flush_buffer_, d->flush_bytes_));
    for (auto* e : {&d->start_, &d->stream_end_, &d->device_end_}) CUDA_CHECK(cudaEventCreate(e));
    return std::unique_ptr<Device>(std::move(d));
  }
  ~CudaDevice() override {
    if (flush_buffer_) cudaFree(flush_buffer_);
  }
  base::Status synchronize() override {
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    return {};
  }
  void flush_cache() override { cudaMemsetAsync(flush_buffer_, ++flush_value_, flush_bytes_, 0); }
  base::Result<CallTime> time_call(const std::function<base::Status()>& call) override {
    CUDA_CHECK(cudaDeviceSynchronize());
    auto t0 = Clock::now();
    CUDA_CHECK(cudaEventRecord(start_, 0));
    TRY(call());
    CUDA_CHECK(cudaEventRecord(stream_end_, 0));
    CUDA_CHECK(cudaDeviceSynchronize());
    double host = ms_since(t0);
    CUDA_CHECK(cudaEventRecord(device_end_, 0));
    CUDA_CHECK(cudaEventSynchronize(device_end_));
    CallTime t;
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stream_end_));
    t.stream_ms = ms;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, device_end_));
    t.device_wide_ms = ms;
    t.host_ms = host;
    return t;
  }
  // Queued: the calls go to the stream back to back, with events around
  // each and one device-wide sync after the last, so that a small kernel is
  // not charged the host's launch and wake-up latency of a sync per call. The
  // per-call host and device-wide times are the batch's, shared evenly on
  // top of each call's stream time: work left on other streams still shows.
  base::Result<std::vector<CallTime>> time_calls(int n, const std::function<base::Status(int)>& call) override {
    while (static_cast<int>(batch_events_.size()) < 2 * n + 1) {
      cudaEvent_t e;
      CUDA_CHECK(cudaEventCreate(&e));
      batch_events_.push_back(e);
    }
    std::vector<CallTime> out;
    if (n <= 0) return out;
    auto t0 = Clock::now();
    for (int k = 0; k < n; ++k) {
      CUDA_CHECK(cudaEventRecord(batch_events_[2 * k], 0));
      TRY(call(k));
      CUDA_CHECK(cudaEventRecord(batch_events_[2 * k + 1], 0));
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    const double host = ms_since(t0);
    cudaEvent_t all_done = batch_events_[2 * n];
    CUDA_CHECK(cudaEventRecord(all_done, 0));
    CUDA_CHECK(cudaEventSynchronize(all_done));
    float wide = 0;
    CUDA_CHECK(cudaEventElapsedTime(&wide, batch_events_[0], all_done));
    double stream_sum = 0;
    for (int k = 0; k < n; ++k) {
      float ms = 0;
      CUDA_CHECK(cudaEventElapsedTime(&ms, batch_events_[2 * k], batch_events_[2 * k + 1]));
      CallTime t;
      t.stream_ms = ms;
      stream_sum += ms;
      out.push_back(t);
    }
    const double wide_extra = std::max(0.0, wide - stream_sum) / n, host_extra = std::max(0.0, host - stream_sum) / n;
    for (auto& t : out) {
      t.device_wide_ms = t.stream_ms + wide_extra;
      t.host_ms = t.stream_ms + host_extra;
    }
    return out;
  }
  void reset_persisting_cache() override {
    cudaCtxResetPersistingL2Cache();
    cudaGetLastError();  // a device without persisting L2 says so; nothing to reset
  }
  base::Status poison_free_memory() override {
    const auto snapshot = c10::cuda::CUDACachingAllocator::snapshot();
    for (const auto& segment : segments_of(snapshot)) {
      // An expandable segment maps its pages on demand: free blocks there may have none.
      if (expandable(segment) || static_cast<int>(segment.device) != ordinal_) continue;
      size_t at = static_cast<size_t>(segment.address);
      for (const auto& block : segment.blocks) {
        if (!block.allocated) {
          CUDA_CHECK(cudaMemsetAsync(reinterpret_cast<void*>(at), 0xFF, static_cast<size_t>(block.size), 0));
        }
        at += static_cast<size_t>(block.size);
      }
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    return {};
  }
  std::string clock_name() const override { return "cuda_events"; }
  nlohmann::json describe() const override {
    auto j = common_versions();
    int runtime = 0, driver = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    int clock_khz = 0, mem_clock_khz = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, ordinal_);
    cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, ordinal_);
    j["device"] = "cuda:" + std::to_string(ordinal_);
    j["gpu"] = props_.name;
    j["compute_capability"] = std::to_string(props_.major) + "." + std::to_string(props_.minor);
    j["cuda_runtime"] = runtime;
    j["cuda_driver"] = driver;
    j["sm_clock_max_mhz"] = clock_khz / 1000;
    j["memory_clock_max_mhz"] = mem_clock_khz / 1000;
    // The DRAM's peak (double data rate over the bus), for the physics floor
    // of a quarantine (docs/integrity.md).
    int bus_bits = 0;
    cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal_);
    j["memory_bus_width_bits"] = bus_bits;
    j["peak_bandwidth_gbs"] = 2.0 * mem_clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    j["l2_bytes"] = props_.l2CacheSize;
    return j;
  }

 private:
  CudaDevice() = default;
  int ordinal_ = 0;
  cudaDeviceProp props_{};
  void* flush_buffer_ = nullptr;
  size_t flush_bytes_ = 0;
  unsigned char flush_value_ = 0;
  cudaEvent_t start_{}, stream_end_{}, device_end_{};
  std::vector<cudaEvent_t> batch_events_;
};
#endif

}  // namespace

base::Result<std::unique_ptr<Device>> make_device(Backend backend, int ordinal, int threads, bool tf32_cudnn) {
  if (backend == Backend::cpu) return std::unique_ptr<Device>(new CpuDevice(threads));
#if REFINERY_WITH_CUDA
  if (!at::hasCUDA()) return base::Error{"the cuda backend needs a visible GPU, and LibTorch sees none"};
  // fp32 means fp32: the references must not use TF32 (cuDNN's default for
  // convolutions), or exact fp32 candidates would fail the 1e-4 tolerance.
  // KernelBench's mode keeps PyTorch's default (WorkerJob::tf32_cudnn).
  at::globalContext().setAllowTF32CuDNN(tf32_cudnn);
  at::globalContext().setAllowTF32CuBLAS(false);
  return CudaDevice::create(ordinal);
#else
  return base::Error{"this refinery-worker was built without CUDA (LibTorch " TORCH_VERSION
                     " is a CPU build or the CUDA toolkit was not found)"};
#endif
}

nlohmann::json probe() {
  nlohmann::json j = common_versions();
  j["cuda_built"] = static_cast<bool>(REFINERY_WITH_CUDA);
  nlohmann::json devices = nlohmann::json::array();
#if REFINERY_WITH_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, i) != cudaSuccess) continue;
    int mem_clock_khz = 0, bus_width = 0;
    cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, i);
    cudaDeviceGetAttribute(&bus_width, cudaDevAttrGlobalMemoryBusWidth, i);
    devices.push_back({{"name", p.name},
                       {"compute_capability", std::to_string(p.major) + "." + std::to_string(p.minor)},
                       {"sm_count", p.multiProcessorCount},
                       {"memory_bytes", p.totalGlobalMem},
                       {"l2_bytes", p.l2CacheSize},
                       {"peak_bandwidth_gbs", 2.0 * mem_clock_khz * 1e3 * (bus_width / 8) / 1e9}});
  }
#endif
  j["cuda_devices"] = devices;
  j["cpu_cores"] = std::thread::hardware_concurrency();
  return j;
}

}  // namespace eval::worker
