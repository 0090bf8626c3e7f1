#include "eval/worker/runner_link.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "base/fs.h"
#include "base/sha256.h"
#include "base/text.h"
#include "eval/worker/runner.h"

namespace eval::worker {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

base::Result<int> memfd_with(const std::string& name, const std::string& bytes, bool seal) {
  int fd = memfd_create(name.c_str(), MFD_CLOEXEC | (seal ? MFD_ALLOW_SEALING : 0u));
  if (fd < 0) return base::Error{std::string("memfd_create: ") + std::strerror(errno)};
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      close(fd);
      return base::Error{std::string("writing ") + name + ": " + std::strerror(errno)};
    }
    done += static_cast<size_t>(n);
  }
  if (seal && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
    close(fd);
    return base::Error{std::string("sealing ") + name + ": " + std::strerror(errno)};
  }
  lseek(fd, 0, SEEK_SET);
  return fd;
}

}  // namespace

base::Result<int> sealed_library(const std::string& path, const std::string& digest, const char* what) {
  TRY_ASSIGN(std::string bytes, base::read_file(path));
  std::string actual = base::sha256_hex(bytes);
  if (digest.empty()) return base::Error{std::string("the job gives no digest for the ") + what + " library"};
  if (actual != digest)
    return base::Error{std::string("the ") + what + " library " + path + " does not match its digest (" +
                       digest.substr(0, 16) + "..., found " + actual.substr(0, 16) + "...): the cache was changed"};
  return memfd_with(std::string("refinery-") + what + ".so", bytes, true);
}

base::Result<std::unique_ptr<RunnerLink>> RunnerLink::start(const RunnerStart& s) {
  auto link = std::unique_ptr<RunnerLink>(new RunnerLink());
  int control = memfd_create("refinery-control", MFD_CLOEXEC);
  if (control < 0 || ftruncate(control, sizeof(ControlBlock)) != 0)
    return base::Error{std::string("the control block: ") + std::strerror(errno)};
  link->control_fd_ = control;
  void* mapped = mmap(nullptr, sizeof(ControlBlock), PROT_READ | PROT_WRITE, MAP_SHARED, control, 0);
  if (mapped == MAP_FAILED) return base::Error{std::string("mapping the control block: ") + std::strerror(errno)};
  link->block_ = static_cast<ControlBlock*>(mapped);
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
    return base::Error{std::string("the runner's socket: ") + std::strerror(errno)};
  link->socket_fd_ = pair[0];
  // The judge only ever sends on it.
  shutdown(pair[0], SHUT_RD);

  eval::SandboxOptions o;
  o.argv = {s.program, "--runner"};
  o.env = s.env;
  o.fds = {{control, kControlFd}, {pair[1], kRunnerSocketFd}};
  o.stdout_fd = 1;
  o.stderr_fd = 2;
  o.root_dir = s.root_dir;
  o.scratch_bytes = s.scratch_bytes;
  o.read_only = eval::mapped_library_folders();
  o.read_only.insert(o.read_only.end(), s.read_only.begin(), s.read_only.end());
  o.limits = s.limits;
  o.cgroup = s.cgroup;
  auto child = eval::spawn_sandboxed(o);
  close(pair[1]);
  if (!child) return child.error().wrap("starting the runner");
  link->pid_ = child->pid;
  link->layers_ = child->layers;
  if (!s.cgroup && !s.no_cgroup_because.empty()) link->layers_.memory_cgroup_note = s.no_cgroup_because;
  if (link->layers_.memory_cgroup) link->cgroup_ = s.cgroup;
  return link;
}

base::Status RunnerLink::send_job(const std::string& job, int candidate_fd) {
  // The socket holds both messages (the job's, then the arena's) without blocking.
  TRY_ASSIGN(int job_fd, memfd_with("refinery-runner-job", job, true));
  auto sent = send_fds(socket_fd_, {job_fd, candidate_fd});
  close(job_fd);
  if (!sent) return sent.error().wrap("sending the runner its job");
  return {};
}

base::Status RunnerLink::ready() {
  // The runner's first reply: its device and its filter are ready.
  auto hello = exchange(false, Clock::now());
  if (!hello) return base::Error{"the runner did not start: " + death()};
  if (hello->result != Reply::ok) return base::Error{"the runner did not start: " + hello->text};
  filtered_ = block_->filtered == 1;
  filter_note_ = hello->text;
  return {};
}

base::Status RunnerLink::attach(const Arena& arena) {
  // Never blocks for long: the socket holds one message, and the runner does not read from it otherwise.
  if (auto sent = send_fds(socket_fd_, {arena.fd()}); !sent) return sent.error().wrap("sending the arena");
  close(socket_fd_);
  socket_fd_ = -1;
  block_->arena_bytes = arena.bytes();
  TRY_ASSIGN(RunnerAnswer a, ask(Command::attach, {}, {}, false));
  if (a.result != Reply::ok) return base::Error{"the runner could not map the arena: " + a.text};
  return {};
}

RunnerLink::~RunnerLink() {
  if (pid_ > 0 && !exited_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (block_) munmap(block_, sizeof(ControlBlock));
  if (control_fd_ >= 0) close(control_fd_);
  if (socket_fd_ >= 0) close(socket_fd_);
}

bool RunnerLink::alive() {
  if (exited_) return false;
  int status = 0;
  pid_t w = waitpid(pid_, &status, WNOHANG | WUNTRACED);
  if (w == pid_ && WIFSTOPPED(status)) {
    // Stopped by itself (the judge's own stops are consumed in stop()): it will not answer.
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    exited_ = true;
    self_stopped_ = true;
    return false;
  }
  if (w == pid_) {
    exited_ = true;
    if (WIFSIGNALED(status)) signal_ = WTERMSIG(status);
    if (WIFEXITED(status)) exit_code_ = WEXITSTATUS(status);
    // PID 1 of a namespace cannot be killed by its own signals; its handlers exit with 128 + the signal.
    if (exit_code_ > 128 && exit_code_ < 128 + 32) signal_ = exit_code_ - 128;
    return false;
  }
  return true;
}

std::string RunnerLink::death() const {
  if (!exited_) return "the runner stopped answering";
  if (self_stopped_) return "the runner stopped itself (" + base::describe_signal(SIGSTOP) + ") and was killed";
  if (signal_ == SIGKILL && cgroup_ && cgroup_->oom_kills() > 0)
    return "the runner was killed by " + base::describe_signal(signal_) + " at its memory cap (" +
           base::format_bytes(static_cast<double>(layers_.memory_cap_bytes)) + ", its cgroup's OOM killer)";
  if (signal_) return "the runner was killed by " + base::describe_signal(signal_);
  return "the runner exited with code " + std::to_string(exit_code_);
}

base::Result<RunnerAnswer> RunnerLink::exchange(bool spin, std::chrono::steady_clock::time_point t0) {
  // seq_ is the number of the reply awaited; the first (the runner's hello) is 1.
  bool ok = wait_equal(block_->reply, seq_, spin ? 10s : 20us, [this] { return alive(); });
  double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (!ok) return base::Error{death()};
  // Copy out once: the runner may keep writing the block.
  RunnerAnswer a;
  a.window_ms = ms;
  int32_t result = block_->result;
  a.result =
      result >= 0 && result <= static_cast<int32_t>(Reply::load_failed) ? static_cast<Reply>(result) : Reply::failed;
  uint32_t n = std::min<uint32_t>(block_->text_bytes, kReplyTextBytes - 1);
  a.text.assign(block_->text, strnlen(block_->text, n));
  for (uint32_t k = 0; k < calls_; ++k)
    a.claimed.push_back({block_->stream_ms[k], block_->device_wide_ms[k], block_->host_ms[k]});
  a.watched = block_->watch == 1;
  if (a.watched) {
    a.own_launches = claimed_count(block_->own_launches);
    a.other_launches = claimed_count(block_->other_launches);
    a.graph_launches = claimed_count(block_->graph_launches);
    a.streams_created = claimed_count(block_->streams_created);
    a.threads_left = claimed_count(block_->threads_left);
    a.own_kernel_us = claimed_us(block_->own_kernel_us);
    a.other_kernel_us = claimed_us(block_->other_kernel_us);
    a.top_other.assign(block_->top_other, strnlen(block_->top_other, sizeof block_->top_other));
  }
  return a;
}

base::Result<RunnerAnswer> RunnerLink::ask(Command command, const CallSlots& inputs, const CallSlots& outputs,
                                           bool spin, bool checked) {
  if (!alive()) return base::Error{death()};
  if (inputs.size() > static_cast<size_t>(kMaxCalls) || (!outputs.empty() && outputs.size() != inputs.size()))
    return base::Error{"a request of " + std::to_string(inputs.size()) + " calls with " +
                       std::to_string(outputs.size()) + " sets of outputs"};
  const size_t per_call = std::max(inputs.empty() ? 0 : inputs[0].size(), outputs.empty() ? 0 : outputs[0].size());
  if (per_call > static_cast<size_t>(kMaxTensors) || inputs.size() * per_call > static_cast<size_t>(kMaxSlots))
    return base::Error{"a request of " + std::to_string(inputs.size()) + " calls of " + std::to_string(per_call) +
                       " tensors: more than a request holds"};
  ControlBlock& b = *block_;
  b.command = static_cast<uint32_t>(command);
  calls_ = static_cast<uint32_t>(inputs.size());
  b.calls = calls_;
  b.input_count = inputs.empty() ? 0 : static_cast<uint32_t>(std::min<size_t>(inputs[0].size(), kMaxTensors));
  b.output_count = outputs.empty() ? 0 : static_cast<uint32_t>(std::min<size_t>(outputs[0].size(), kMaxTensors));
  for (uint32_t k = 0; k < calls_; ++k) {
    std::copy_n(inputs[k].begin(), std::min<size_t>(b.input_count, inputs[k].size()), b.inputs + k * b.input_count);
    if (!outputs.empty())
      std::copy_n(outputs[k].begin(), std::min<size_t>(b.output_count, outputs[k].size()),
                  b.outputs + k * b.output_count);
    b.stream_ms[k] = b.device_wide_ms[k] = b.host_ms[k] = 0;
  }
  b.checked = checked ? 1 : 0;
  b.watch = 0;
  b.own_launches = b.other_launches = b.graph_launches = b.streams_created = b.threads_left = 0;
  b.own_kernel_us = b.other_kernel_us = 0;
  b.top_other[0] = '\0';
  b.result = -1;
  b.text_bytes = 0;
  b.text[0] = '\0';
  ++seq_;
  auto t0 = Clock::now();  // before the request is visible: the runner may start at once
  post(b.request, seq_);
  return exchange(spin, t0);
}

base::Result<RunnerAnswer> RunnerLink::timed_call(const CallSlots& inputs, const CallSlots& outputs, bool spin) {
  TRY_ASSIGN(RunnerAnswer armed, ask(Command::arm, {}, {}, true));
  (void)armed;
  return ask(Command::call, inputs, outputs, spin);
}

void RunnerLink::stop() {
  if (exited_ || stopped_) return;
  if (kill(pid_, SIGSTOP) != 0) return;
  siginfo_t info{};
  while (waitid(P_PID, static_cast<id_t>(pid_), &info, WSTOPPED | WEXITED | WNOWAIT) != 0 && errno == EINTR) {
  }
  if (info.si_code == CLD_STOPPED) {
    // Consume the stop notification.
    waitid(P_PID, static_cast<id_t>(pid_), &info, WSTOPPED | WNOHANG);
    stopped_ = true;
  } else {
    alive();
  }
}

void RunnerLink::resume() {
  if (exited_ || !stopped_) return;
  kill(pid_, SIGCONT);
  stopped_ = false;
}

}  // namespace eval::worker
