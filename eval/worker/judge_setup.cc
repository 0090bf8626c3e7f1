#include "eval/worker/judge_setup.h"

#include <algorithm>

#include "base/text.h"

extern char** environ;

namespace eval::worker {
namespace {

TensorSlot slot_for(const at::Tensor& t, uint64_t offset) {
  TensorSlot s;
  s.offset = offset;
  s.dtype = static_cast<int32_t>(t.scalar_type());
  s.ndim = static_cast<int32_t>(std::min<int64_t>(t.dim(), kMaxDims));
  for (int i = 0; i < s.ndim; ++i) s.shape[i] = t.size(i);
  return s;
}

uint64_t bytes_of(const at::Tensor& t) {
  return static_cast<uint64_t>(t.numel()) * t.element_size();
}

uint64_t place_bytes(const std::vector<at::Tensor>& inputs, const std::vector<at::Tensor>& outputs) {
  uint64_t n = 0;
  for (const auto* side : {&inputs, &outputs})
    for (const auto& t : *side) n += align_slot(bytes_of(t));
  return n;
}

}  // namespace

Layout plan_layout(const std::vector<at::Tensor>& inputs, const std::vector<at::Tensor>& outputs, int places) {
  Layout l;
  uint64_t at = 0;
  for (int r = 0; r < places; ++r) {
    l.inputs.emplace_back();
    l.outputs.emplace_back();
    for (const auto* side : {&inputs, &outputs})
      for (const auto& t : *side) {
        (side == &inputs ? l.inputs : l.outputs).back().push_back(slot_for(t, at));
        at += align_slot(bytes_of(t));
      }
  }
  l.bytes = at;
  return l;
}

int places_within(const std::vector<at::Tensor>& inputs, const std::vector<at::Tensor>& outputs, uint64_t budget) {
  const uint64_t one = std::max<uint64_t>(place_bytes(inputs, outputs), 1);
  // A request's slots are shared by its calls: a network's hundreds of weights leave room for fewer.
  const uint64_t per_call = std::max<uint64_t>({inputs.size(), outputs.size(), 1});
  const uint64_t most = std::min<uint64_t>(kMaxCalls, kMaxSlots / per_call);
  return static_cast<int>(std::clamp<uint64_t>(budget / one, 2, most));
}

std::vector<at::Tensor> views(const Arena& arena, const std::vector<TensorSlot>& slots) {
  std::vector<at::Tensor> out;
  for (const auto& s : slots)
    out.push_back(
        arena.view(s.offset, std::vector<int64_t>(s.shape, s.shape + s.ndim), static_cast<at::ScalarType>(s.dtype)));
  return out;
}

std::vector<std::string> runner_environment() {
  std::vector<std::string> env = {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp", "TMPDIR=/tmp"};
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    std::string key = kv.substr(0, kv.find('='));
    static const char* kept[] = {"CUDA_VISIBLE_DEVICES",
                                 "CUDA_DEVICE_ORDER",
                                 "CUDA_MODULE_LOADING",
                                 "NVIDIA_VISIBLE_DEVICES",
                                 "NVIDIA_DRIVER_CAPABILITIES",
                                 "LD_LIBRARY_PATH",
                                 "OMP_NUM_THREADS",
                                 "LANG",
                                 "LC_ALL"};
    bool keep = std::find(std::begin(kept), std::end(kept), key) != std::end(kept);
    if (keep) env.push_back(kv);
  }
  return env;
}

nlohmann::json describe_layers(const eval::SandboxLayers& l, bool filtered, const std::string& filter_note,
                               std::vector<std::string>* missing) {
  *missing = l.missing;
  if (!filtered) missing->push_back("syscall filter: " + (filter_note.empty() ? "not installed" : filter_note));
  // Layers that keep the host and the judge standing, not the verdict honest:
  // without them a candidate can exhaust memory, which ends its own
  // evaluation (crashed, or the judge's timeout), never with a forged
  // verdict. Recorded, and shown by `refinery doctor`, but no reason to distrust.
  nlohmann::json degraded = nlohmann::json::array();
  if (!l.memory_cgroup && !l.memory_cgroup_note.empty()) degraded.push_back("memory cgroup: " + l.memory_cgroup_note);
  if (l.oom_score_adj <= 0) degraded.push_back("oom_score_adj: the runner is not the OOM killer's first choice");
  nlohmann::json j = {{"user_namespace", l.user_namespace},
                      {"pid_namespace", l.pid_namespace},
                      {"mount_namespace", l.mount_namespace},
                      {"network_namespace", l.network_namespace},
                      {"ipc_namespace", l.ipc_namespace},
                      {"unprivileged", l.unprivileged},
                      {"no_new_privs", l.no_new_privs},
                      {"seccomp", filtered},
                      {"uid", l.uid},
                      {"oom_score_adj", l.oom_score_adj},
                      {"memory_cgroup", l.memory_cgroup},
                      {"missing", *missing},
                      {"degraded", degraded}};
  if (l.memory_cgroup) j["memory_cap_bytes"] = l.memory_cap_bytes;
  return j;
}

}  // namespace eval::worker
