#include "eval/sandbox/seccomp.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace eval {
namespace {

constexpr int kDenied[] = {
    SYS_ptrace,
    SYS_process_vm_readv,
    SYS_process_vm_writev,
    SYS_kcmp,
    SYS_pidfd_getfd,
    SYS_setns,
    SYS_unshare,
    SYS_mount,
    SYS_umount2,
    SYS_pivot_root,
    SYS_chroot,
    SYS_open_tree,
    SYS_move_mount,
    SYS_fsopen,
    SYS_fsconfig,
    SYS_fsmount,
    SYS_fspick,
    SYS_mount_setattr,
    SYS_clock_settime,
    SYS_settimeofday,
    SYS_adjtimex,
    SYS_clock_adjtime,
    SYS_kexec_load,
    SYS_kexec_file_load,
    SYS_init_module,
    SYS_finit_module,
    SYS_delete_module,
    SYS_bpf,
    SYS_perf_event_open,
    SYS_keyctl,
    SYS_add_key,
    SYS_request_key,
    SYS_io_uring_setup,
    SYS_io_uring_enter,
    SYS_io_uring_register,
    SYS_userfaultfd,
    SYS_setpriority,
    SYS_sched_setscheduler,
    SYS_sched_setparam,
    SYS_sched_setattr,
    SYS_ioprio_set,
    SYS_sched_setaffinity,
    SYS_personality,
    SYS_iopl,
    SYS_ioperm,
    SYS_swapon,
    SYS_swapoff,
    SYS_reboot,
    SYS_acct,
    SYS_quotactl,
    SYS_name_to_handle_at,
    SYS_open_by_handle_at,
    SYS_syslog,
    SYS_fanotify_init,
    SYS_execve,
    SYS_execveat,
};
constexpr int kProcesses[] = {SYS_fork, SYS_vfork};

sock_filter stmt(unsigned short code, unsigned k) {
  return BPF_STMT(code, k);
}
sock_filter jump(unsigned short code, unsigned k, unsigned char jt, unsigned char jf) {
  return BPF_JUMP(code, k, jt, jf);
}

}  // namespace

base::Status install_runner_filter(bool allow_processes) {
  const unsigned deny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
  std::vector<sock_filter> f;
  f.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
  f.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
  f.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
  f.push_back(jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));  // x32
  f.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
  std::vector<int> denied(std::begin(kDenied), std::end(kDenied));
  if (!allow_processes) denied.insert(denied.end(), std::begin(kProcesses), std::end(kProcesses));
  for (int nr : denied) {
    f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(nr), 0, 1));
    f.push_back(stmt(BPF_RET | BPF_K, deny));
  }
  // socket: no netlink (the kernel's configuration interfaces, audit, uevents)
  // and no vsock (a way to the hypervisor's host); the domain is an int, the
  // low word of args[0] on x86_64.
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 4));
  f.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 1, 0));
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, AF_VSOCK, 0, 1));
  f.push_back(stmt(BPF_RET | BPF_K, deny));
  // prctl(PR_SET_DUMPABLE): the process stays as install_runner_filter() left it.
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 3));
  f.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_DUMPABLE, 0, 1));
  f.push_back(stmt(BPF_RET | BPF_K, deny));
  // The accumulator holds args[0] or nr here: reload nr for the checks below.
  f.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
  f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1));
  f.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)));
  if (!allow_processes) {
    // clone: a thread (CLONE_THREAD in the low word of the flags) or nothing.
    f.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 3));
    f.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])));
    f.push_back(jump(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 1, 0));
    f.push_back(stmt(BPF_RET | BPF_K, deny));
  }
  f.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));

  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return base::Error{std::string("prctl(PR_SET_NO_NEW_PRIVS): ") + std::strerror(errno)};
  // Not dumpable: the process's /proc files then belong to root (to the user
  // namespace's owner, in one), so that model code can neither lower the OOM
  // score the sandbox set (without CAP_SYS_RESOURCE the score is not also its
  // floor) nor write its other /proc/self files.
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
    return base::Error{std::string("prctl(PR_SET_DUMPABLE): ") + std::strerror(errno)};
  sock_fprog prog{static_cast<unsigned short>(f.size()), f.data()};
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0)
    return base::Error{std::string("seccomp(SECCOMP_SET_MODE_FILTER): ") + std::strerror(errno)};
  return {};
}

}  // namespace eval
