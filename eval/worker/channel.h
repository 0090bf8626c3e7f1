// The judge's and the runner's shared control block, and how each waits on
// the other.
//
// The judge creates the block in a memfd and hands it to the runner as
// descriptor 3. A request is the judge writing the payload and then bumping
// `request`; the reply is the runner writing its payload and then setting
// `reply` to the request's number. Both words are futexes, so a waiter can
// spin (for the lowest latency, when a core is free) or sleep.
//
// The runner runs model code, so everything in the block may be written by
// the candidate at any moment: the judge copies what it needs out once, after
// the reply, and checks it; nothing in the block decides a verdict by itself.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "base/result.h"

namespace eval::worker {

inline constexpr int kMaxTensors = 1024;  // per call (eval::kMaxProblemTensors): a network's weight list
inline constexpr int kMaxCalls = 256;     // per request (a timed batch), one place of the arena each
inline constexpr int kMaxSlots = 16384;   // per request, calls x tensors per call, on each side
inline constexpr int kMaxDims = 8;
inline constexpr size_t kReplyTextBytes = 1 << 20;

enum class Command : uint32_t {
  none,
  attach,   // take the arena: its descriptor comes over the socket, its size in arena_bytes
  load,     // load the candidate (sent once its filter status is read)
  arm,      // spin for the next request: the next one is timed
  call,     // call forward once per place named, back to back, each copying its outputs into its slots
  profile,  // profile one call on the inputs named (CUPTI), reply with the JSON
  exit,
};

enum class Reply : int32_t {
  ok = 0,
  failed = 1,       // forward threw or the device reported an error; text says what
  wrong_shape = 2,  // the outputs differ in count, dtype or shape from the slots; text says how
  rejected = 3,     // an output shares storage with an input; text says which
  load_failed = 4,  // the candidate library did not load; text says why
};

struct TensorSlot {
  uint64_t offset = 0;  // bytes into the arena
  int32_t dtype = 0;    // c10::ScalarType
  int32_t ndim = 0;
  int64_t shape[kMaxDims] = {};
};

struct ControlBlock {
  alignas(64) std::atomic<uint32_t> request;
  alignas(64) std::atomic<uint32_t> reply;
  // The request.
  alignas(64) uint32_t command;
  uint64_t arena_bytes;           // attach
  uint32_t calls;                 // call, profile: how many, one per place
  uint32_t input_count;           // per call
  TensorSlot inputs[kMaxSlots];   // call k's tensor inputs from k * input_count, in the spec's order
  uint32_t output_count;          // per call
  TensorSlot outputs[kMaxSlots];  // call k's outputs go from k * output_count, as the reference shaped them
  // The reply.
  int32_t result;
  int32_t filtered;  // first reply: 1 when the syscall filter is in place
  // Per call, the runner's own clock: a claim, not a measurement.
  double stream_ms[kMaxCalls], device_wide_ms[kMaxCalls], host_ms[kMaxCalls];
  uint32_t text_bytes;
  char text[kReplyTextBytes];
  // Added after the text, so that the offsets above stay as attack 7's candidate has them.
  // Request, call: an untimed checked call (a correctness trial): poison freed memory first, trace the kernels.
  uint32_t checked;
  // Reply: the request's kernels, from the runner's launch watch (cuda,
  // profiler/launch_watch.h): claims, like the times. watch: 1 on, 0 none.
  int32_t watch;
  int64_t own_launches, other_launches, graph_launches, streams_created, threads_left;
  double own_kernel_us, other_kernel_us;
  char top_other[256];
};

// A launch-watch count or GPU time (microseconds) as the runner claimed it,
// made safe to sum: the candidate may have written anything there. A request
// launches fewer than 2^32 kernels and runs for less than 100 s, so the
// judge's sums stay within what a result may hold (eval/verdict/outcome.h).
inline int64_t claimed_count(int64_t n) {
  return std::clamp<int64_t>(n, 0, int64_t{1} << 32);
}
inline double claimed_us(double us) {
  return std::isfinite(us) && us > 0 ? std::min(us, 1e8) : 0.0;
}

// Waits until `word` equals `value`. Spins for up to `spin` first, then sleeps
// on the futex in short slices, calling `alive` between them; returns false
// as soon as `alive` does.
bool wait_equal(std::atomic<uint32_t>& word, uint32_t value, std::chrono::nanoseconds spin,
                const std::function<bool()>& alive);

// Waits until `word` differs from `value`, the same way; returns its new value.
uint32_t wait_change(std::atomic<uint32_t>& word, uint32_t value, std::chrono::nanoseconds spin);

// Stores `value` and wakes whoever sleeps on `word`.
void post(std::atomic<uint32_t>& word, uint32_t value);

// Descriptors (one or two) over a Unix socket, in one message (SCM_RIGHTS):
// how the runner's job and candidate, then the arena, reach a runner that is
// already running. send_fds never blocks; receive_fds waits for the next
// message and returns the descriptors it carries, close-on-exec, or an Error
// (and closes them) when it carries another number of them.
base::Status send_fds(int socket, const std::vector<int>& fds);
base::Result<std::vector<int>> receive_fds(int socket, size_t count);

}  // namespace eval::worker
