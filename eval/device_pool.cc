#include "eval/device_pool.h"

#include <algorithm>
#include <chrono>

namespace eval {

DevicePool::DevicePool(std::vector<int> devices) : devices_(std::move(devices)) {}

base::Result<int> DevicePool::acquire() {
  std::unique_lock<std::mutex> lock(mutex_);
  auto retired = [&](int d) {
    return std::any_of(retired_.begin(), retired_.end(), [&](const RetiredDevice& r) { return r.device == d; });
  };
  for (;;) {
    bool any_left = false;
    for (int d : devices_) {
      if (retired(d)) continue;
      any_left = true;
      if (!busy_.count(d)) {
        busy_.insert(d);
        return d;
      }
    }
    if (!any_left) {
      std::string why = "every device is retired:";
      for (const auto& r : retired_)
        why += " device " + std::to_string(r.device) + " (after " + r.during + ": " + r.reason + ");";
      why.pop_back();
      return base::Error{devices_.empty() ? std::string("no device to evaluate on") : why};
    }
    freed_.wait(lock);
  }
}

void DevicePool::release(int device) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    busy_.erase(device);
  }
  freed_.notify_all();
}

void DevicePool::retire(int device, const std::string& reason, const std::string& during) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    retired_.push_back({device, reason, during});
  }
  freed_.notify_all();
}

std::vector<RetiredDevice> DevicePool::retired() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return retired_;
}

bool device_suspect(const Outcome& o) {
  if (o.status == Status::timeout || o.status == Status::crashed) return true;
  if (o.status != Status::runtime_error) return false;
  // Errors CUDA reports for the context, not the call: the device may be left unusable.
  for (const char* sticky : {"illegal memory access", "illegal address", "unspecified launch failure",
                             "launch timed out", "uncorrectable ECC", "device-side assert", "misaligned address",
                             "CUDA-capable device", "device is busy or unavailable"})
    if (o.message.find(sticky) != std::string::npos) return true;
  return false;
}

base::Result<PooledOutcome> run_on_pool(DevicePool& pool, const std::string& what,
                                        const std::function<base::Result<Outcome>(int)>& run,
                                        const std::function<base::Status(int)>& probe) {
  PooledOutcome out;
  // The first run, and one more if the first retired its device.
  for (int attempt = 0; attempt < 2; ++attempt) {
    TRY_ASSIGN(int device, pool.acquire());
    auto outcome = run(device);
    bool retired = false;
    if (outcome && device_suspect(*outcome)) {
      const auto start = std::chrono::steady_clock::now();
      auto probed = probe(device);
      ++out.probes;
      out.probe_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (!probed) {
        pool.retire(device, probed.error().message, what);
        out.retired.push_back({device, probed.error().message, what});
        retired = true;
      }
    }
    pool.release(device);
    if (!outcome) return outcome.error();
    out.outcome = std::move(outcome).value();
    out.device = device;
    if (!retired) break;
  }
  return out;
}

}  // namespace eval
