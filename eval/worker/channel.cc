#include "eval/worker/channel.h"

#include <linux/futex.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <immintrin.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace eval::worker {
namespace {

using Clock = std::chrono::steady_clock;

void futex_wait(std::atomic<uint32_t>& word, uint32_t seen, long ns) {
  struct timespec t = {ns / 1000000000, ns % 1000000000};
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAIT, seen, &t, nullptr, 0);
}

// A one-byte message with room for kMaxFds descriptors.
constexpr size_t kMaxFds = 2;
struct FdMessage {
  char byte = 'a';
  iovec io{&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  msghdr m{};
  explicit FdMessage(size_t count) {
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    m.msg_control = control;
    m.msg_controllen = CMSG_SPACE(sizeof(int) * count);
  }
};

}  // namespace

base::Status send_fds(int socket, const std::vector<int>& fds) {
  if (fds.empty() || fds.size() > kMaxFds)
    return base::Error{"send_fds: " + std::to_string(fds.size()) + " descriptors"};
  FdMessage msg(fds.size());
  cmsghdr* c = CMSG_FIRSTHDR(&msg.m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
  std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  if (sendmsg(socket, &msg.m, MSG_NOSIGNAL | MSG_DONTWAIT) != 1) return base::Error{std::strerror(errno)};
  return {};
}

base::Result<std::vector<int>> receive_fds(int socket, size_t count) {
  if (count == 0 || count > kMaxFds) return base::Error{"receive_fds: " + std::to_string(count) + " descriptors"};
  FdMessage msg(kMaxFds);
  ssize_t n;
  while ((n = recvmsg(socket, &msg.m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
  }
  if (n != 1) return base::Error{n == 0 ? std::string("the socket was closed") : std::strerror(errno)};
  cmsghdr* c = CMSG_FIRSTHDR(&msg.m);
  if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
    return base::Error{"the message carries no descriptor"};
  const size_t got = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
  std::vector<int> fds(got);
  std::memcpy(fds.data(), CMSG_DATA(c), sizeof(int) * got);
  if (got != count) {
    for (int fd : fds) close(fd);
    return base::Error{"the message carries " + std::to_string(got) + " descriptors, not " + std::to_string(count)};
  }
  return fds;
}

bool wait_equal(std::atomic<uint32_t>& word, uint32_t value, std::chrono::nanoseconds spin,
                const std::function<bool()>& alive) {
  auto until = Clock::now() + spin;
  unsigned n = 0;
  while (word.load(std::memory_order_acquire) != value) {
    if (Clock::now() < until) {
      _mm_pause();
      if (++n % 4096 == 0 && !alive()) return false;
      continue;
    }
    uint32_t seen = word.load(std::memory_order_acquire);
    if (seen == value) break;
    futex_wait(word, seen, 2000000);
    if (!alive()) return word.load(std::memory_order_acquire) == value;
  }
  return true;
}

uint32_t wait_change(std::atomic<uint32_t>& word, uint32_t value, std::chrono::nanoseconds spin) {
  auto until = Clock::now() + spin;
  uint32_t now;
  while ((now = word.load(std::memory_order_acquire)) == value) {
    if (Clock::now() < until) {
      _mm_pause();
      continue;
    }
    futex_wait(word, value, 100000000);
  }
  return now;
}

void post(std::atomic<uint32_t>& word, uint32_t value) {
  word.store(value, std::memory_order_release);
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE, 1 << 30, nullptr, nullptr, 0);
}

}  // namespace eval::worker
