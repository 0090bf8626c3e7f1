// What the GPU tests need to know about the machine: is a GPU visible to the
// worker, and which nvcc target it wants.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "base/subprocess.h"
#include "eval/worker_launcher.h"

namespace gpu_support {

struct Gpu {
  bool available = false;
  std::string name, arch, why;
};

inline Gpu probe() {
  Gpu g;
  base::SpawnOptions o;
  o.argv = {REFINERY_WORKER_PATH, "--probe"};
  o.env = eval::current_environment();
  o.timeout_seconds = 120;
  auto r = base::run_process(o);
  if (!r.ok() || !r->exited_ok()) {
    g.why = "refinery-worker --probe failed";
    return g;
  }
  auto j = nlohmann::json::parse(r->out, nullptr, false);
  if (j.is_discarded() || !j.value("cuda_built", false)) {
    g.why = "this build's LibTorch has no CUDA";
    return g;
  }
  if (j["cuda_devices"].empty()) {
    g.why = "no CUDA device visible";
    return g;
  }
  g.available = true;
  g.name = j["cuda_devices"][0].value("name", "?");
  std::string cc = j["cuda_devices"][0].value("compute_capability", "9.0");
  for (char c : cc)
    if (c != '.') g.arch += c;
  if (g.arch >= "90") g.arch += "a";
  return g;
}

}  // namespace gpu_support
