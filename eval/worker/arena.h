// Memory that the judge and the runner both map: the candidate's inputs and
// the slots its outputs are copied into.
//
// On cpu it is a memfd mapped shared; on cuda it is device memory made with
// the driver's virtual memory API (cuMemCreate) and exported as a POSIX file
// descriptor, which, unlike legacy CUDA IPC handles, crosses PID namespaces.
// The judge creates it and hands fd() to the runner, which opens it at the
// same size. Tensors are views (no ownership); the Arena must outlive them.
// One thread at a time.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>

#include "base/result.h"
#include "eval/job.h"

namespace eval::worker {

class Arena {
 public:
  virtual ~Arena() = default;
  static base::Result<std::unique_ptr<Arena>> create(Backend backend, int device, uint64_t bytes);
  static base::Result<std::unique_ptr<Arena>> open(Backend backend, int device, int fd, uint64_t bytes);

  virtual int fd() const = 0;
  virtual uint64_t bytes() const = 0;
  // A view of `bytes()` from `offset` as a contiguous tensor on the arena's device.
  virtual at::Tensor view(uint64_t offset, at::IntArrayRef shape, at::ScalarType dtype) const = 0;
};

// Rounds up to the alignment every slot of the arena starts at.
inline uint64_t align_slot(uint64_t bytes) {
  return (bytes + 511) / 512 * 512;
}

}  // namespace eval::worker
