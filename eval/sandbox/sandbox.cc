#include "eval/sandbox/sandbox.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <set>

#include "base/fs.h"
#include "base/text.h"

namespace eval {
namespace {

// One step of building the child's root, prepared in the parent so that the
// child only makes system calls.
struct MountStep {
  enum Kind { make_dir, make_file, make_link, bind, remount, remount_tree, tmpfs, proc } kind;
  std::string path;    // inside the new root (already prefixed)
  std::string source;  // bind: host path; make_link: link target; tmpfs: options
  unsigned long flags = 0;
  std::string what;  // for the failure message
  // remount_tree: every mount below `path` and its remount flags, for a
  // kernel without mount_setattr (or when `walk`).
  std::vector<std::pair<std::string, unsigned long>> below = {};
  bool walk = false;
};

// mount_setattr(2) (Linux 5.12), declared here for C libraries older than glibc 2.36.
constexpr long kSysMountSetattr = 442;  // x86_64
constexpr unsigned kAtRecursive = 0x8000;
constexpr uint64_t kMountAttrRdonly = 0x1, kMountAttrNosuid = 0x2;
struct MountAttr {
  uint64_t attr_set, attr_clr, propagation, userns_fd;
};

// Where the child stopped, sent back through the status pipe.
struct ChildReport {
  int step = -1;  // index into the failure names below, -1 = reached exec
  int error = 0;
  int mount_step = -1;
  unsigned uid = 0;
  int oom_score_adj = 0;
  bool unprivileged = false;
  bool no_new_privs = false;
};

enum ChildStage {
  kUserMap,
  kSession,
  kMountPrivate,
  kMountStep,
  kPivot,
  kDropPrivileges,
  kNoNewPrivs,
  kLimits,
  kDescriptors,
  kChdir,
  kExec,
};

const char* stage_name(int stage) {
  static const char* names[] = {"writing the user namespace's id maps",
                                "starting a session",
                                "making mounts private",
                                "building the private root",
                                "pivoting into the private root",
                                "dropping privileges",
                                "setting no_new_privs",
                                "setting resource limits",
                                "arranging descriptors",
                                "entering the working folder",
                                "executing the program"};
  return stage >= 0 && stage <= kExec ? names[stage] : "?";
}

bool write_proc_file(const char* path, const std::string& text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

unsigned long locked_flags(const std::string& path) {
  struct statvfs s {};
  if (statvfs(path.c_str(), &s) != 0) return 0;
  unsigned long flags = 0;
  if (s.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (s.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (s.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (s.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (s.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  return flags;
}

bool is_under(const std::string& path, const std::string& folder) {
  if (folder == "/") return true;
  return path == folder ||
         (path.size() > folder.size() && path.compare(0, folder.size(), folder) == 0 && path[folder.size()] == '/');
}

std::string canonical(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : "";
}

// A bind of the plan: `source` on the host shown at `inside`.
struct Bind {
  std::string inside, source;
  bool writable = false;
};

// The steps that make the bind of `host` at root + `inside` read-only, with
// every mount below it: the bind's own remount, then the mounts below
// (MS_REMOUNT applies to one mount; a bind with MS_REC copies them all).
void read_only_steps(const std::string& root, const std::string& inside, const std::string& host,
                     const std::vector<base::Mount>& mounts, bool walk, std::vector<MountStep>& steps) {
  steps.push_back({MountStep::remount, root + inside, "",
                   MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | locked_flags(host), inside});
  MountStep tree{MountStep::remount_tree, root + inside, "", 0, inside + " (the mounts below it)"};
  tree.walk = walk;
  std::vector<std::string> points;
  for (const auto& m : mounts)
    if (m.point != host && is_under(m.point, host)) points.push_back(m.point);
  std::sort(points.begin(), points.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  points.erase(std::unique(points.begin(), points.end()), points.end());
  for (const auto& point : points)
    tree.below.emplace_back(root + inside + point.substr(host.size()),
                            MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | locked_flags(point));
  steps.push_back(std::move(tree));
}

// The plan for the child's root: every folder, file, link and mount, in order.
std::vector<MountStep> plan_root(const SandboxOptions& o) {
  const std::string root = o.root_dir;
  auto mountinfo = base::read_file("/proc/self/mountinfo");
  const std::vector<base::Mount> mounts = mountinfo ? base::parse_mountinfo(*mountinfo) : std::vector<base::Mount>{};
  std::vector<MountStep> steps;
  std::set<std::string> made;
  auto make_parents = [&](const std::string& path) {
    std::string at;
    for (const auto& part : base::split(path, '/')) {
      if (part.empty()) continue;
      at += "/" + part;
      if (at == path) break;
      if (made.insert(at).second) steps.push_back({MountStep::make_dir, root + at, "", 0, at});
    }
  };
  steps.push_back({MountStep::tmpfs, root, "size=8m,mode=0755", MS_NOSUID, "the root tmpfs"});
  // The scratch /tmp first: what is bound below it (a build folder under /tmp)
  // must land on top of it, not under it.
  steps.push_back({MountStep::make_dir, root + "/tmp", "", 0, "/tmp"});
  steps.push_back({MountStep::tmpfs, root + "/tmp",
                   "size=" + std::to_string(std::max<uint64_t>(o.scratch_bytes, 1 << 20)) + ",mode=1777",
                   MS_NOSUID | MS_NODEV, "/tmp"});
  made.insert("/tmp");

  // System folders and links as they are on the host (/lib -> usr/lib on merged-usr systems).
  std::vector<Bind> binds;
  for (const auto& p : o.system) {
    struct stat st {};
    if (lstat(p.c_str(), &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      char target[PATH_MAX];
      ssize_t n = readlink(p.c_str(), target, sizeof target - 1);
      if (n <= 0) continue;
      steps.push_back({MountStep::make_link, root + p, std::string(target, static_cast<size_t>(n)), 0, p});
    } else if (S_ISDIR(st.st_mode)) {
      binds.push_back({p, p});
    }
  }
  // Other paths at their real place, and also where they were named when
  // that place is not otherwise in view (a toolkit reached through a link:
  // /opt/cuda -> /opt/cuda-13.0; not /bin/sh, which /bin already shows).
  std::vector<std::pair<std::string, bool>> asked;
  for (const auto& path : o.read_only) asked.emplace_back(path, false);
  for (const auto& path : o.read_write) asked.emplace_back(path, true);
  std::vector<std::string> in_view = o.system;
  for (const auto& [path, writable] : asked) {
    std::string real = canonical(path);
    if (real.empty()) continue;
    binds.push_back({real, real, writable});
    in_view.push_back(real);
  }
  for (const auto& [path, writable] : asked) {
    std::string real = canonical(path);
    std::string named = std::filesystem::path(path).lexically_normal().string();
    while (named.size() > 1 && named.back() == '/') named.pop_back();
    if (real.empty() || named.empty() || named[0] != '/' || named == real) continue;
    bool seen = false;
    for (const auto& v : in_view) seen = seen || is_under(named, v);
    if (!seen) binds.push_back({named, real, writable});
  }
  // Outer folders first, so that one inside another lands on top of it; a
  // read-only path already visible read-only through an outer one is not bound again.
  std::sort(binds.begin(), binds.end(), [](const Bind& a, const Bind& b) {
    if (a.inside.size() != b.inside.size()) return a.inside.size() < b.inside.size();
    return a.inside != b.inside ? a.inside < b.inside : a.writable < b.writable;
  });
  std::vector<Bind> kept;
  for (const auto& b : binds) {
    const Bind* outer = nullptr;
    for (const auto& k : kept)
      if (is_under(b.inside, k.inside) && (!outer || k.inside.size() > outer->inside.size())) outer = &k;
    if (outer && outer->inside == b.inside && outer->writable == b.writable) continue;
    if (!b.writable && outer && !outer->writable && outer->inside == outer->source) continue;
    kept.push_back(b);
  }
  for (const auto& b : kept) {
    struct stat st {};
    if (stat(b.source.c_str(), &st) != 0) continue;
    make_parents(b.inside);
    if (S_ISDIR(st.st_mode)) {
      if (made.insert(b.inside).second) steps.push_back({MountStep::make_dir, root + b.inside, "", 0, b.inside});
    } else {
      steps.push_back({MountStep::make_file, root + b.inside, "", 0, b.inside});
    }
    steps.push_back({MountStep::bind, root + b.inside, b.source, MS_BIND | MS_REC, b.inside});
    if (b.writable) {
      steps.push_back({MountStep::remount, root + b.inside, "",
                       MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV | locked_flags(b.source), b.inside});
    } else {
      read_only_steps(root, b.inside, b.source, mounts, o.remount_by_walk, steps);
    }
  }

  // A /dev of the few nodes the program needs.
  steps.push_back({MountStep::make_dir, root + "/dev", "", 0, "/dev"});
  std::vector<std::string> nodes = o.devices;
  if (o.nvidia_devices) {
    std::vector<std::string> nvidia;
    if (DIR* d = opendir("/dev")) {
      while (dirent* e = readdir(d))
        if (std::strncmp(e->d_name, "nvidia", 6) == 0) nvidia.push_back(e->d_name);
      closedir(d);
    }
    std::sort(nvidia.begin(), nvidia.end());
    nodes.insert(nodes.end(), nvidia.begin(), nvidia.end());
  }
  for (const auto& n : nodes) {
    std::string host = "/dev/" + n;
    struct stat st {};
    if (stat(host.c_str(), &st) != 0) continue;
    bool dir = S_ISDIR(st.st_mode);
    steps.push_back({dir ? MountStep::make_dir : MountStep::make_file, root + host, "", 0, host});
    steps.push_back(
        {MountStep::bind, root + host, host, MS_BIND | (dir ? static_cast<unsigned long>(MS_REC) : 0ul), host});
    // A folder of nodes (/dev/nvidia-caps) is read-only too: a device node
    // opens for writing on a read-only mount all the same.
    if (dir) read_only_steps(root, host, host, mounts, o.remount_by_walk, steps);
  }
  steps.push_back({MountStep::make_link, root + "/dev/fd", "/proc/self/fd", 0, "/dev/fd"});
  steps.push_back({MountStep::make_dir, root + "/dev/shm", "", 0, "/dev/shm"});
  steps.push_back({MountStep::tmpfs, root + "/dev/shm", "size=64m,mode=1777", MS_NOSUID | MS_NODEV, "/dev/shm"});
  steps.push_back({MountStep::make_dir, root + "/proc", "", 0, "/proc"});
  steps.push_back({MountStep::proc, root + "/proc", "", MS_NOSUID | MS_NODEV | MS_NOEXEC, "/proc"});
  return steps;
}

struct Prepared {
  std::vector<MountStep> steps;
  std::vector<char*> argv, envp;
  std::string uid_map, gid_map, oom_score_adj;
  unsigned outer_uid = 0, outer_gid = 0;
  bool root = false;
};

int run_step(const MountStep& s) {
  switch (s.kind) {
    case MountStep::make_dir:
      return mkdir(s.path.c_str(), 0755) == 0 || errno == EEXIST ? 0 : -1;
    case MountStep::make_file: {
      int fd = open(s.path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0) return -1;
      close(fd);
      return 0;
    }
    case MountStep::make_link:
      return symlink(s.source.c_str(), s.path.c_str());
    case MountStep::bind:
      return mount(s.source.c_str(), s.path.c_str(), nullptr, s.flags, nullptr);
    case MountStep::remount:
      return mount(nullptr, s.path.c_str(), nullptr, s.flags, nullptr);
    case MountStep::remount_tree: {
      if (!s.walk) {
        MountAttr attr{kMountAttrRdonly | kMountAttrNosuid, 0, 0, 0};
        if (syscall(kSysMountSetattr, AT_FDCWD, s.path.c_str(), kAtRecursive, &attr, sizeof attr) == 0) return 0;
      }
      for (const auto& [path, flags] : s.below)
        if (mount(nullptr, path.c_str(), nullptr, flags, nullptr) != 0) return -1;
      return 0;
    }
    case MountStep::tmpfs:
      return mount("tmpfs", s.path.c_str(), "tmpfs", s.flags, s.source.c_str());
    case MountStep::proc:
      return mount("proc", s.path.c_str(), "proc", s.flags, nullptr);
  }
  return -1;
}

// The child, from clone to exec. Only system calls on prepared data.
// `gate` (with a memory cgroup): a pipe on which the parent says, with one
// byte, that it has moved the child into the cgroup.
[[noreturn]] void child_main(const SandboxOptions& o, const Prepared& p, bool user_ns, bool mount_ns, int status_fd,
                             const int gate[2]) {
  // Nothing before the move: a process started before it would stay outside
  // the cgroup (a move takes no children along), and pages charged before it
  // would stay charged outside.
  if (gate[0] >= 0) {
    close(gate[1]);
    char go;
    while (read(gate[0], &go, 1) < 0 && errno == EINTR) {
    }
    close(gate[0]);
  }
  ChildReport report;
  // The status pipe moves out of the way of the descriptors the child is given.
  if (dup3(status_fd, 500, O_CLOEXEC) == 500) status_fd = 500;
  auto fail = [&](int stage) {
    report.step = stage;
    report.error = errno;
    base::write_fully(status_fd, &report, sizeof report);
    _exit(127);
  };
  if (user_ns) {
    if (!write_proc_file("/proc/self/setgroups", "deny") || !write_proc_file("/proc/self/gid_map", p.gid_map) ||
        !write_proc_file("/proc/self/uid_map", p.uid_map))
      fail(kUserMap);
  }
  // Before the identity goes: written with CAP_SYS_RESOURCE, the value is
  // also the least the child may set again (oom_score_adj_min); without it,
  // the runner's filter (eval/sandbox/seccomp.h) keeps model code from writing it.
  if (!p.oom_score_adj.empty() && write_proc_file("/proc/self/oom_score_adj", p.oom_score_adj))
    report.oom_score_adj = o.oom_score_adj;
  if (setsid() < 0) fail(kSession);
  if (mount_ns) {
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) fail(kMountPrivate);
    for (size_t i = 0; i < p.steps.size(); ++i) {
      if (run_step(p.steps[i]) != 0) {
        report.mount_step = static_cast<int>(i);
        fail(kMountStep);
      }
    }
    if (chdir(o.root_dir.c_str()) != 0 || syscall(SYS_pivot_root, ".", ".") != 0 || umount2(".", MNT_DETACH) != 0 ||
        chdir("/") != 0)
      fail(kPivot);
    mount(nullptr, "/", nullptr, MS_REMOUNT | MS_RDONLY | MS_NOSUID, nullptr);
  }
  // Drop every capability for good, then (as root) the identity.
  if (user_ns || p.root) {
    if (user_ns)
      prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP |
                                   SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED);
    for (int cap = 0; cap <= 63; ++cap) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  }
  if (p.root && !user_ns) {
    // Raw system calls: libc's wrappers would ask every thread of the
    // parent, whose list this copy inherited, to change too, and wait for
    // answers that never come (a clone of a multithreaded refinery hangs).
    if (syscall(SYS_setgroups, 0, nullptr) != 0 || syscall(SYS_setresgid, o.gid, o.gid, o.gid) != 0 ||
        syscall(SYS_setresuid, o.uid, o.uid, o.uid) != 0)
      fail(kDropPrivileges);
    report.uid = o.uid;
    report.unprivileged = true;
  } else if (user_ns) {
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2] = {};
    if (syscall(SYS_capset, &header, data) != 0) fail(kDropPrivileges);
    report.uid = p.outer_uid;
    report.unprivileged = true;
  } else {
    report.uid = p.outer_uid;
    report.unprivileged = p.outer_uid != 0;
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail(kNoNewPrivs);
  report.no_new_privs = true;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  for (const auto& limit : o.limits) {
    struct rlimit rl = {static_cast<rlim_t>(limit.value), static_cast<rlim_t>(std::max(limit.value, limit.hard))};
    if (setrlimit(limit.resource, &rl) != 0) fail(kLimits);
  }
  // Descriptors: 0 from /dev/null, 1 and 2 as asked, the named ones, nothing else.
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull < 0) fail(kDescriptors);
  int parked[64];
  const size_t count = std::min<size_t>(o.fds.size(), 64);
  for (size_t i = 0; i < count; ++i)
    if ((parked[i] = fcntl(o.fds[i].first, F_DUPFD_CLOEXEC, 600)) < 0) fail(kDescriptors);
  int out = fcntl(o.stdout_fd >= 0 ? o.stdout_fd : devnull, F_DUPFD_CLOEXEC, 600);
  int err = fcntl(o.stderr_fd >= 0 ? o.stderr_fd : devnull, F_DUPFD_CLOEXEC, 600);
  if (out < 0 || err < 0 || dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) fail(kDescriptors);
  int highest = 2;
  for (size_t i = 0; i < count; ++i) {
    if (dup2(parked[i], o.fds[i].second) < 0) fail(kDescriptors);
    highest = std::max(highest, o.fds[i].second);
  }
  // Everything else goes; the status pipe (close-on-exec, parked above 500) until the exec.
  for (int fd = highest + 1; fd < 500; ++fd) close(fd);
  syscall(SYS_close_range, 501u, ~0u, 0u);
  if (chdir(!o.cwd.empty() ? o.cwd.c_str() : mount_ns ? "/tmp" : "/") != 0) fail(kChdir);
  base::write_fully(status_fd, &report, sizeof report);
  execve(p.argv[0], p.argv.data(), p.envp.data());
  report.step = kExec;
  report.error = errno;
  base::write_fully(status_fd, &report, sizeof report);
  _exit(127);
}

}  // namespace

base::Result<SandboxedChild> spawn_sandboxed(const SandboxOptions& o) {
  if (o.argv.empty() || o.argv[0].empty() || o.argv[0][0] != '/')
    return base::Error{"spawn_sandboxed: argv[0] must be an absolute path"};
  if (o.root_dir.empty()) return base::Error{"spawn_sandboxed: no root folder"};
  Prepared p;
  p.root = geteuid() == 0;
  p.outer_uid = geteuid();
  p.outer_gid = getegid();
  if (o.oom_score_adj != 0) p.oom_score_adj = std::to_string(o.oom_score_adj);
  p.uid_map = "0 " + std::to_string(p.outer_uid) + " 1";
  p.gid_map = "0 " + std::to_string(p.outer_gid) + " 1";
  // The folders it may write become the identity's it takes.
  if (p.root)
    for (const auto& dir : o.read_write) TRY(base::chown_tree(dir, o.uid, o.gid));
  SandboxOptions opts = o;
  opts.read_only.push_back(o.argv[0]);
  for (const auto& kv : o.env)
    if (base::starts_with(kv, "LD_LIBRARY_PATH="))
      for (const auto& dir : base::split(kv.substr(16), ':'))
        if (!dir.empty()) opts.read_only.push_back(dir);
  p.steps = plan_root(opts);
  p.argv = base::exec_strings(o.argv);
  p.envp = base::exec_strings(o.env);

  // Tiers, strongest first; each refusal is recorded and the next one tried.
  struct Tier {
    bool user_ns, namespaces, mount_ns;
  };
  std::vector<Tier> tiers = {{!p.root, true, true}, {!p.root, true, false}, {false, false, false}};
  if (o.require_every_layer) tiers.resize(1);
  std::vector<std::string> missing;
  for (const Tier& tier : tiers) {
    int status_pipe[2], gate[2] = {-1, -1};
    if (pipe2(status_pipe, O_CLOEXEC) != 0) return base::Error{std::string("pipe: ") + std::strerror(errno)};
    if (o.cgroup && pipe2(gate, O_CLOEXEC) != 0) {
      int e = errno;
      close(status_pipe[0]);
      close(status_pipe[1]);
      return base::Error{std::string("pipe: ") + std::strerror(e)};
    }
    unsigned long flags = SIGCHLD;
    if (tier.namespaces) flags |= CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS;
    if (tier.mount_ns) flags |= CLONE_NEWNS;
    if (tier.user_ns) flags |= CLONE_NEWUSER;
    long pid = syscall(SYS_clone, flags, nullptr, nullptr, nullptr, 0);
    if (pid == 0) child_main(opts, p, tier.user_ns, tier.mount_ns, status_pipe[1], gate);
    close(status_pipe[1]);
    // Into its memory cgroup before it does anything (it waits at the gate):
    // it has charged only its copy of this process's page tables.
    base::Status in_cgroup = pid > 0 && o.cgroup ? o.cgroup->add(static_cast<pid_t>(pid)) : base::Status{};
    if (o.cgroup) {
      // A byte, not the end of the pipe: another thread's child may hold a copy of this end.
      if (pid > 0) base::write_fully(gate[1], "g", 1);
      close(gate[0]);  // after the write: with a reader here, it cannot raise SIGPIPE
      close(gate[1]);
    }
    if (pid < 0) {
      int e = errno;
      close(status_pipe[0]);
      missing.push_back(std::string(tier.mount_ns ? "namespaces" : "pid and network namespaces") + ": clone refused (" +
                        std::strerror(e) + ")");
      continue;
    }
    // Two reports: one just before exec, and one more only if exec failed.
    std::string bytes;
    char buf[256];
    for (ssize_t n; (n = read(status_pipe[0], buf, sizeof buf)) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      bytes.append(buf, static_cast<size_t>(n));
    }
    close(status_pipe[0]);
    ChildReport first{}, last{};
    if (bytes.size() >= sizeof first) std::memcpy(&first, bytes.data(), sizeof first);
    if (bytes.size() >= sizeof last) std::memcpy(&last, bytes.data() + bytes.size() - sizeof last, sizeof last);
    if (bytes.size() < sizeof first || last.step >= 0) {
      waitpid(static_cast<pid_t>(pid), nullptr, 0);
      int stage = bytes.size() < sizeof first ? -2 : last.step;
      std::string why = stage == -2 ? "the child died before reporting"
                                    : std::string(stage_name(stage)) +
                                          (stage == kMountStep && last.mount_step >= 0 &&
                                                   last.mount_step < static_cast<int>(p.steps.size())
                                               ? " (" + p.steps[last.mount_step].what + ")"
                                               : "") +
                                          ": " + std::strerror(last.error);
      if (stage == kExec) return base::Error{"cannot execute " + o.argv[0] + ": " + std::strerror(last.error)};
      missing.push_back(std::string(tier.mount_ns     ? "private root"
                                    : tier.namespaces ? "namespaces"
                                                      : "sandbox") +
                        ": " + why);
      continue;
    }
    SandboxedChild child;
    child.pid = static_cast<pid_t>(pid);
    child.layers.user_namespace = tier.user_ns;
    child.layers.pid_namespace = tier.namespaces;
    child.layers.network_namespace = tier.namespaces;
    child.layers.ipc_namespace = tier.namespaces;
    child.layers.mount_namespace = tier.mount_ns;
    child.layers.unprivileged = first.unprivileged;
    child.layers.no_new_privs = first.no_new_privs;
    child.layers.uid = first.uid;
    child.layers.oom_score_adj = first.oom_score_adj;
    if (o.cgroup) {
      child.layers.memory_cgroup = static_cast<bool>(in_cgroup);
      if (in_cgroup)
        child.layers.memory_cap_bytes = o.cgroup->limit_bytes();
      else
        child.layers.memory_cgroup_note = in_cgroup.error().message;
    }
    child.layers.missing = missing;
    if (!first.unprivileged)
      child.layers.missing.push_back("unprivileged identity: the child has refinery's uid and capabilities");
    if (o.require_every_layer && !child.layers.missing.empty()) {
      kill(child.pid, SIGKILL);
      waitpid(child.pid, nullptr, 0);
      return base::Error{"the sandbox is incomplete: " + base::join(child.layers.missing, "; ")};
    }
    return child;
  }
  return base::Error{"cannot start a sandboxed process: " + base::join(missing, "; ")};
}

}  // namespace eval
