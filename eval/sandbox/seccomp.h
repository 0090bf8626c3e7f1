// The runner's system-call filter: what model code may not ask the kernel for.
//
// install_runner_filter() sets no_new_privs, makes the process not dumpable
// (its /proc/self files, oom_score_adj among them, then belong to root), and
// installs a seccomp-BPF filter on the calling thread (and, with TSYNC, every
// thread of the process) that answers EPERM to: tracing and reading other
// processes (ptrace, process_vm_readv/writev, kcmp, pidfd_getfd), leaving or
// making namespaces (setns, unshare, mount and the new mount API, pivot_root,
// chroot), setting the clocks (clock_settime, settimeofday, adjtimex,
// clock_adjtime), loading kernels or modules (kexec_*, *_module), bpf,
// perf_event_open, keyrings, io_uring (which would bypass the filter),
// userfaultfd, raising priority or changing scheduling (setpriority,
// sched_setscheduler/param/attr, sched_setaffinity, ioprio_set), personality
// (no ASLR, READ_IMPLIES_EXEC), netlink and vsock sockets (socket with
// AF_NETLINK or AF_VSOCK), prctl(PR_SET_DUMPABLE), new programs (execve,
// execveat) and new processes (fork, vfork, and clone without CLONE_THREAD,
// unless allow_processes). clone3 answers ENOSYS so that libc falls back to
// clone, whose flags the filter can read. Calls of another architecture's ABI
// (x32, i386) kill the process.
//
// Irreversible for the process. Call before loading untrusted code.
#pragma once

#include "base/result.h"

namespace eval {

base::Status install_runner_filter(bool allow_processes);

}  // namespace eval
