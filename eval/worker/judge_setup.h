// What the judge prepares before the runner starts: where each tensor lives
// in the arena, the runner's environment, and how the sandbox that applied is
// described in the result. Pure functions; the judge's main thread.
#pragma once

#include <ATen/core/Tensor.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "eval/job.h"
#include "eval/sandbox/sandbox.h"
#include "eval/worker/arena.h"
#include "eval/worker/channel.h"

namespace eval::worker {

// Where everything the runner sees lives: `places` places, each one set of
// the tensor inputs and one slot per output. Correctness calls alternate
// between places 0 and 1; a timed batch gives each of its calls a place.
struct Layout {
  std::vector<std::vector<TensorSlot>> inputs, outputs;  // [place][tensor]
  uint64_t bytes = 0;
};

Layout plan_layout(const std::vector<at::Tensor>& inputs, const std::vector<at::Tensor>& outputs, int places);

// The bytes a timed batch's places may take: the arena's, and as much again for
// each of the judge's own per-call copies (fresh inputs, the reference's outputs).
inline uint64_t batch_budget(Backend backend) {
  return backend == Backend::cuda ? (4ull << 30) : (256ull << 20);
}

// How many calls of `place_bytes` each a timed batch may hold within batch_budget:
// at least 1 (a call bigger than the budget is timed alone), at most kMaxCalls.
inline int calls_within(uint64_t place_bytes, Backend backend) {
  const uint64_t calls = batch_budget(backend) / std::max<uint64_t>(place_bytes, 1);
  return static_cast<int>(std::clamp<uint64_t>(calls, 1, kMaxCalls));
}

// How many places an arena of at most `budget` bytes holds: at least 2, at most kMaxCalls and
// kMaxSlots over the tensors of one call.
int places_within(const std::vector<at::Tensor>& inputs, const std::vector<at::Tensor>& outputs, uint64_t budget);

// Views of the arena at the slots.
std::vector<at::Tensor> views(const Arena& arena, const std::vector<TensorSlot>& slots);

// The runner's whole environment: a PATH, HOME and TMPDIR of its own, and the
// few device and locale variables of this process.
std::vector<std::string> runner_environment();

// The result's "sandbox" object; `missing` gets every layer that did not apply
// (a result with one is untrusted). Its "degraded" list names the layers that
// protect the host rather than the verdict (the runner's memory cgroup, its
// oom_score_adj) where they did not apply: they do not make a result untrusted.
nlohmann::json describe_layers(const eval::SandboxLayers& l, bool filtered, const std::string& filter_note,
                               std::vector<std::string>* missing);

}  // namespace eval::worker
