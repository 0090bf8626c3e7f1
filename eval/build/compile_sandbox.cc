// How each compile step is spawned: the sandbox the compilers run in, the
// caps they are held to, and what a result that hit a cap says
// (compiler_detail.h).
#include <filesystem>

#include "base/text.h"
#include "eval/build/compiler_detail.h"
#include "eval/sandbox/sandbox.h"

namespace eval::detail {
namespace fs = std::filesystem;

namespace {

// The folder a compiler is installed in: /usr for /usr/bin/g++,
// /usr/local/cuda for /usr/local/cuda/bin/nvcc; "" when it is the root.
std::string install_root(const std::string& program) {
  fs::path root = fs::path(program).parent_path().parent_path();
  return root.empty() || root == root.root_path() ? "" : root.string();
}

}  // namespace

base::SpawnOptions compile_spawn(const Toolchain& t, const CompileOptions& options, std::vector<std::string> argv,
                                 const std::string& scratch, const std::vector<std::string>& read_only,
                                 const std::vector<std::string>& devices, bool gpu) {
  const CompileSandbox& s = options.sandbox;
  base::SpawnOptions o;
  o.argv = std::move(argv);
  for (const char* key : {"PATH", "LD_LIBRARY_PATH", "CUDA_HOME"})
    if (const char* v = std::getenv(key)) o.env.push_back(std::string(key) + "=" + v);
  o.env.push_back("LC_ALL=C");  // plain ASCII quotes in logs that models and tests read
  o.cwd = scratch;
  o.timeout_seconds = options.timeout_seconds;
  o.output_cap_bytes = 256 << 10;
  base::ProcessCaps caps = compile_caps(options, gpu);
  // RLIMIT_NPROC counts every process of the uid: refinery's own, outside the sandbox.
  if (!s.enabled) caps.processes = 0;
  o.limits = base::limits(caps);
  if (!s.enabled) {
    for (const char* key : {"HOME", "TMPDIR"})
      if (const char* v = std::getenv(key)) o.env.push_back(std::string(key) + "=" + v);
    return o;
  }
  o.env.insert(o.env.end(), {"HOME=/tmp", "TMPDIR=/tmp"});
  eval::SandboxView view = eval::toolchain_view();
  view.scratch_bytes = s.scratch_bytes;
  view.devices.insert(view.devices.end(), devices.begin(), devices.end());
  view.nvidia_devices = gpu;
  if (gpu) view.system.push_back("/sys");  // the CUDA driver reads the devices' topology there, as in the runner
  view.require_every_layer = !s.allow_incomplete;
  for (const std::string& program : {t.cxx, t.nvcc})
    if (std::string root = program.empty() ? "" : install_root(program); !root.empty()) view.read_only.push_back(root);
  view.read_only.insert(view.read_only.end(), t.torch_includes.begin(), t.torch_includes.end());
  if (!t.torch_lib_dir.empty()) view.read_only.push_back(t.torch_lib_dir);
  view.read_only.insert(view.read_only.end(), s.read_only.begin(), s.read_only.end());
  view.read_only.insert(view.read_only.end(), read_only.begin(), read_only.end());
  if (!scratch.empty()) view.read_write.push_back(scratch);
  // Beside each process's rlimit, a memory cgroup holds the step's whole tree
  // to the same cap together, memfd, tmpfs and SysV shared memory included,
  // where the host allows one (else the step runs under its rlimits alone).
  o.start = std::make_shared<eval::SandboxStarter>(std::move(view), s.caps.memory_bytes);
  return o;
}

base::ProcessCaps compile_caps(const CompileOptions& options, bool gpu) {
  base::ProcessCaps caps = options.sandbox.caps;
  // CUDA reserves address space far beyond what it uses, and fails its
  // initialisation under RLIMIT_AS ("out of memory"), so a compile that may use
  // the GPU (a Python build that runs Triton's compile) is held to the same
  // cap as RLIMIT_DATA: what it allocates, not what it reserves.
  if (gpu) caps.private_memory_only = true;
  return caps;
}

std::optional<std::string> cap_note(const base::ProcessResult& r, const CompileOptions& options, bool gpu) {
  auto cap = base::exceeded_cap(r, compile_caps(options, gpu));
  if (!cap) return std::nullopt;
  return "refinery: the compile exceeded its " + *cap;
}

std::string sandbox_key(const CompileOptions& options) {
  return std::string(options.sandbox.enabled ? "sandboxed" : "unsandboxed") + ", " +
         base::describe(options.sandbox.caps);
}

}  // namespace eval::detail
