#include "eval/worker/arena.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <ATen/ops/from_blob.h>

#include "build_info.h"

#if REFINERY_WITH_CUDA
#include <cuda.h>
#endif

namespace eval::worker {
namespace {

class HostArena : public Arena {
 public:
  HostArena(int fd, void* data, uint64_t bytes) : fd_(fd), data_(data), bytes_(bytes) {}
  ~HostArena() override {
    munmap(data_, bytes_);
    close(fd_);
  }
  int fd() const override { return fd_; }
  uint64_t bytes() const override { return bytes_; }
  at::Tensor view(uint64_t offset, at::IntArrayRef shape, at::ScalarType dtype) const override {
    return at::from_blob(static_cast<char*>(data_) + offset, shape, at::TensorOptions().dtype(dtype));
  }

 private:
  int fd_;
  void* data_;
  uint64_t bytes_;
};

base::Result<std::unique_ptr<Arena>> map_host(int fd, uint64_t bytes) {
  void* data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) return base::Error{std::string("mmap of the arena: ") + std::strerror(errno)};
  return std::unique_ptr<Arena>(new HostArena(fd, data, bytes));
}

#if REFINERY_WITH_CUDA
#define CU_CHECK(call)                                                                                           \
  do {                                                                                                           \
    CUresult r_ = (call);                                                                                        \
    if (r_ != CUDA_SUCCESS) {                                                                                    \
      const char* s_ = nullptr;                                                                                  \
      cuGetErrorString(r_, &s_);                                                                                 \
      return base::Error{std::string(#call) + " failed at " + __FILE__ + ":" + std::to_string(__LINE__) + ": " + \
                         (s_ ? s_ : "unknown error")};                                                           \
    }                                                                                                            \
  } while (0)

class DeviceArena : public Arena {
 public:
  ~DeviceArena() override {
    if (ptr_) {
      cuMemUnmap(ptr_, size_);
      cuMemAddressFree(ptr_, size_);
    }
    if (handle_) cuMemRelease(handle_);
    if (fd_ >= 0) close(fd_);
  }
  static base::Result<std::unique_ptr<Arena>> make(int device, uint64_t bytes, int import_fd) {
    auto a = std::unique_ptr<DeviceArena>(new DeviceArena());
    a->device_ = device;
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t granularity = 0;
    CU_CHECK(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    a->bytes_ = bytes;
    a->size_ = (std::max<uint64_t>(bytes, 1) + granularity - 1) / granularity * granularity;
    if (import_fd < 0) {
      CU_CHECK(cuMemCreate(&a->handle_, a->size_, &prop, 0));
      int fd = -1;
      CU_CHECK(cuMemExportToShareableHandle(&fd, a->handle_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
      a->fd_ = fd;
    } else {
      a->fd_ = import_fd;
      CU_CHECK(cuMemImportFromShareableHandle(&a->handle_, reinterpret_cast<void*>(static_cast<intptr_t>(import_fd)),
                                              CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    }
    CU_CHECK(cuMemAddressReserve(&a->ptr_, a->size_, 0, 0, 0));
    CU_CHECK(cuMemMap(a->ptr_, a->size_, 0, a->handle_, 0));
    CUmemAccessDesc access = {};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CU_CHECK(cuMemSetAccess(a->ptr_, a->size_, &access, 1));
    return std::unique_ptr<Arena>(std::move(a));
  }
  int fd() const override { return fd_; }
  uint64_t bytes() const override { return bytes_; }
  at::Tensor view(uint64_t offset, at::IntArrayRef shape, at::ScalarType dtype) const override {
    return at::from_blob(reinterpret_cast<char*>(ptr_) + offset, shape,
                         at::TensorOptions().dtype(dtype).device(at::Device(at::kCUDA, device_)));
  }

 private:
  DeviceArena() = default;
  int device_ = 0, fd_ = -1;
  uint64_t bytes_ = 0, size_ = 0;
  CUmemGenericAllocationHandle handle_ = 0;
  CUdeviceptr ptr_ = 0;
};
#endif

}  // namespace

base::Result<std::unique_ptr<Arena>> Arena::create(Backend backend, int device, uint64_t bytes) {
  bytes = std::max<uint64_t>(bytes, 4096);
  if (backend == Backend::cpu) {
    int fd = memfd_create("refinery-arena", MFD_CLOEXEC);
    if (fd < 0) return base::Error{std::string("memfd_create: ") + std::strerror(errno)};
    if (ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
      close(fd);
      return base::Error{std::string("sizing the arena: ") + std::strerror(errno)};
    }
    return map_host(fd, bytes);
  }
#if REFINERY_WITH_CUDA
  return DeviceArena::make(device, bytes, -1);
#else
  return base::Error{"this worker was built without CUDA"};
#endif
}

base::Result<std::unique_ptr<Arena>> Arena::open(Backend backend, int device, int fd, uint64_t bytes) {
  bytes = std::max<uint64_t>(bytes, 4096);
  if (backend == Backend::cpu) {
    struct stat st {};
    if (fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_size) < bytes)
      return base::Error{"the arena descriptor is not the size the job says"};
    return map_host(fd, bytes);
  }
#if REFINERY_WITH_CUDA
  return DeviceArena::make(device, bytes, fd);
#else
  return base::Error{"this worker was built without CUDA"};
#endif
}

}  // namespace eval::worker
