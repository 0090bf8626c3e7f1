// What callers of the sandbox start children with (sandbox.h,
// sandbox_view.h): the toolchain's view, the folders a view needs for this
// program's libraries, and SandboxStarter, which run_process uses to spawn
// each child into a sandbox (and a memory cgroup) of its own.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>

#include "base/cgroup.h"
#include "base/fs.h"
#include "eval/sandbox/sandbox.h"

namespace eval {

SandboxView toolchain_view() {
  SandboxView v;
  v.system = {"/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin"};
  v.read_only = {"/etc/ld.so.cache", "/etc/alternatives"};
  v.devices = {"null"};
  v.nvidia_devices = false;
  v.oom_score_adj = 1000;
  return v;
}

base::Result<base::StartedChild> SandboxStarter::start(const base::SpawnOptions& o, int out_fd, int err_fd,
                                                       base::ProcessResult& r) const {
  std::error_code ec;
  TRY_ASSIGN(std::string root, base::make_temp_dir(std::filesystem::temp_directory_path(ec).string(), "refinery-root"));
  SandboxOptions s;
  static_cast<SandboxView&>(s) = view_;
  s.argv = o.argv;
  s.env = o.env;
  s.stdout_fd = out_fd;
  s.stderr_fd = err_fd;
  s.root_dir = root;
  s.cwd = o.cwd;
  s.limits = o.limits;
  // Shared with the callback below, which removes it once the child is gone.
  std::shared_ptr<base::MemoryCgroup> cgroup;
  if (memory_cgroup_bytes_ > 0) {
    auto made = base::MemoryCgroup::create(base::cgroup_parent(), "refinery-compile-" + std::to_string(getpid()),
                                           memory_cgroup_bytes_);
    if (made)
      cgroup = std::move(made).value();
    else
      r.memory_cgroup_note = made.error().message;
  }
  s.cgroup = cgroup.get();
  auto child = spawn_sandboxed(s);
  if (!child) {
    rmdir(root.c_str());
    return child.error();
  }
  r.network_isolated = child->layers.network_namespace;
  r.refused_layers = child->layers.missing;
  if (cgroup && child->layers.memory_cgroup)
    r.memory_cgroup_bytes = child->layers.memory_cap_bytes;
  else if (cgroup)
    r.memory_cgroup_note = child->layers.memory_cgroup_note;
  return base::StartedChild{child->pid, [root, cgroup](base::ProcessResult& done) mutable {
                              if (cgroup)
                                done.memory_cgroup_oom = done.memory_cgroup_bytes > 0 && cgroup->oom_kills() > 0;
                              cgroup.reset();  // anything left in it killed, and the cgroup removed
                              rmdir(root.c_str());
                            }};
}

std::vector<std::string> mapped_library_folders() {
  std::set<std::string> folders;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    auto slash = line.find('/');
    if (slash == std::string::npos) continue;
    std::string path = line.substr(slash);
    if (path.find(".so") == std::string::npos) continue;
    auto cut = path.rfind('/');
    if (cut > 0) folders.insert(path.substr(0, cut));
  }
  return {folders.begin(), folders.end()};
}

}  // namespace eval
