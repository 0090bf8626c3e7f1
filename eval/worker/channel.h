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

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace eval::worker {

inline constexpr int kMaxTensors = 64;
inline constexpr int kMaxDims = 8;
inline constexpr size_t kReplyTextBytes = 1 << 20;

enum class Command : uint32_t {
  none,
  load,     // load the candidate (sent once its filter status is read)
  arm,      // spin for the next request: the next one is timed
  call,     // call forward on the inputs named, copy the outputs into their slots
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
  uint32_t input_count;
  TensorSlot inputs[kMaxTensors];  // the tensor inputs, in the spec's order
  uint32_t output_count;
  TensorSlot outputs[kMaxTensors];  // where the outputs go, as the reference shaped them
  // The reply.
  int32_t result;
  int32_t filtered;  // first reply: 1 when the syscall filter is in place
  double stream_ms, device_wide_ms, host_ms;  // the runner's own clock; a claim, not a measurement
  uint32_t text_bytes;
  char text[kReplyTextBytes];
};

// Waits until `word` equals `value`. Spins for up to `spin` first, then sleeps
// on the futex in short slices, calling `alive` between them; returns false
// as soon as `alive` does.
bool wait_equal(std::atomic<uint32_t>& word, uint32_t value, std::chrono::nanoseconds spin,
                const std::function<bool()>& alive);

// Waits until `word` differs from `value`, the same way; returns its new value.
uint32_t wait_change(std::atomic<uint32_t>& word, uint32_t value, std::chrono::nanoseconds spin);

// Stores `value` and wakes whoever sleeps on `word`.
void post(std::atomic<uint32_t>& word, uint32_t value);

}  // namespace eval::worker
