#include "eval/build/static_checks.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <set>
#include <string_view>
#include <tuple>

#include "eval/build/source_lexer.h"

namespace eval {
namespace {

constexpr std::array<const char*, kRuleCount> kNames = {
    "streams",   "threads",         "processes",     "environment", "proc_files",  "timers",
    "signals",   "dynamic_loading", "host_asm",      "file_writes", "library_ops", "vendor_libraries",
    "precision", "cache_control",   "include_paths", "patching"};

const char* why(Rule rule) {
  switch (rule) {
    case Rule::streams:
      return "work queued on a stream of your own can outlive forward and escape the timing; use the current "
             "stream (at::cuda::getCurrentCUDAStream()), or join every stream you start before forward returns";
    case Rule::threads:
      return "a thread that outlives forward runs outside the timing; do the work inside forward, or join every "
             "thread before it returns";
    case Rule::processes:
      return "a kernel has no use for other processes or signals to them; compute the output in forward";
    case Rule::environment:
      return "the environment holds nothing a kernel needs (and never the harness's secrets); remove the lookup";
    case Rule::proc_files:
      return "/proc, /sys and /dev describe the harness, not the problem; a kernel reads only its inputs";
    case Rule::timers:
      return "the harness times forward; a kernel that reads clocks can only be trying to adapt to the timing";
    case Rule::signals:
      return "signal handlers change how the harness sees a crash or a timeout; remove them";
    case Rule::dynamic_loading:
      return "loading libraries or looking symbols up at run time reaches code that was not compiled here, and "
             "the profiler (CUPTI) is the harness's; call what you need directly";
    case Rule::host_asm:
      return "inline assembly in host code reaches outside the kernel; keep asm inside __device__ or __global__ "
             "functions";
    case Rule::file_writes:
      return "a kernel writes only its outputs; files outlive the call and are not part of the answer";
    case Rule::library_ops:
      return "this campaign asks for kernels of your own: the library op the reference is made of does the "
             "work instead of your kernel; write the computation as a kernel";
    case Rule::vendor_libraries:
      return "this campaign asks for kernels of your own, not calls into vendor libraries (cuBLAS, cuDNN, "
             "CUTLASS); write the computation as a kernel";
    case Rule::precision:
      return "switching the library to TF32 or reduced-precision reductions trades accuracy the tolerance may not "
             "allow; if you lower precision, do it in your own kernel and check the error against the tolerance";
    case Rule::cache_control:
      return "a persisting-L2 carve-out outlives forward and changes the device for whatever runs next; every "
             "timed call gets fresh inputs, so it cannot help: remove it";
    case Rule::include_paths:
      return "a kernel includes headers by name (<torch/extension.h>, <cuda_fp16.h>), never a file by its path, a "
             "device or a path a macro builds, and embeds no files (.incbin); include only what it compiles against";
    case Rule::patching:
      return "replacing what torch, time, sys or builtins hold changes the harness, not the kernel; define "
             "functions of your own instead";
  }
  return "";
}

}  // namespace

const char* rule_why(Rule rule) {
  return why(rule);
}

namespace {

bool in(const std::string& name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool starts(const std::string& s, std::string_view prefix) {
  return s.rfind(prefix, 0) == 0;
}

// The namespace functions of LibTorch that make, shape or describe tensors
// and streams rather than compute: what a kernel of one's own still needs.
bool allowed_library_function(const std::string& name, const std::string& qualifier) {
  if (!name.empty() && (std::isupper(static_cast<unsigned char>(name[0])) ||
                        (name[0] == 'k' && name.size() > 1 && std::isupper(static_cast<unsigned char>(name[1])))))
    return true;  // types, constructors and constants: Tensor, TensorOptions, kFloat
  if (qualifier.find("cuda") != std::string::npos && qualifier.find("blas") == std::string::npos) return true;
  return in(name, {"empty",
                   "empty_like",
                   "empty_strided",
                   "zeros",
                   "zeros_like",
                   "ones",
                   "ones_like",
                   "full",
                   "full_like",
                   "from_blob",
                   "tensor",
                   "arange",
                   "scalar_tensor",
                   "device",
                   "dtype",
                   "elementSize",
                   "typeMetaToScalarType",
                   "toString",
                   "get_num_threads",
                   "parallel_for",
                   "globalContext",
                   "maybe_wrap_dim",
                   "infer_size",
                   "IntArrayRef",
                   "requires_grad",
                   "layout",
                   "strided",
                   "NoGradGuard",
                   "AutoDispatchBelowADInplaceOrView",
                   "namedinference",
                   "manual_seed"});
}

// The tensor methods that compute (as opposed to viewing, shaping or
// describing): x.matmul(w), y.relu().
bool compute_method(const std::string& name) {
  static const std::set<std::string> names = {"matmul",
                                              "mm",
                                              "bmm",
                                              "addmm",
                                              "addbmm",
                                              "baddbmm",
                                              "addmv",
                                              "mv",
                                              "dot",
                                              "einsum",
                                              "conv1d",
                                              "conv2d",
                                              "conv3d",
                                              "relu",
                                              "relu_",
                                              "gelu",
                                              "silu",
                                              "sigmoid",
                                              "sigmoid_",
                                              "tanh",
                                              "tanh_",
                                              "softmax",
                                              "log_softmax",
                                              "sum",
                                              "mean",
                                              "prod",
                                              "cumsum",
                                              "cumprod",
                                              "exp",
                                              "exp_",
                                              "log",
                                              "log_",
                                              "pow",
                                              "pow_",
                                              "sqrt",
                                              "rsqrt",
                                              "mul",
                                              "mul_",
                                              "add",
                                              "add_",
                                              "sub",
                                              "sub_",
                                              "div",
                                              "div_",
                                              "norm",
                                              "var",
                                              "std",
                                              "amax",
                                              "amin",
                                              "argmax",
                                              "argmin",
                                              "topk",
                                              "sort",
                                              "clamp",
                                              "clamp_",
                                              "clamp_min",
                                              "clamp_max",
                                              "abs",
                                              "neg",
                                              "reciprocal",
                                              "hardtanh",
                                              "leaky_relu",
                                              "elu",
                                              "selu",
                                              "softplus",
                                              "logsumexp",
                                              "max_pool2d",
                                              "avg_pool2d",
                                              "layer_norm",
                                              "group_norm",
                                              "batch_norm",
                                              "instance_norm",
                                              "lerp",
                                              "where",
                                              "masked_fill",
                                              "tril",
                                              "triu",
                                              "diag",
                                              "outer",
                                              "kron",
                                              "tensordot",
                                              "linalg_norm",
                                              "erf",
                                              "sin",
                                              "cos",
                                              "floor",
                                              "ceil",
                                              "round",
                                              "sign",
                                              "square",
                                              "minimum",
                                              "maximum",
                                              "cross",
                                              "logical_and",
                                              "logical_or",
                                              "gather",
                                              "scatter",
                                              "scatter_add",
                                              "index_select",
                                              "index_add",
                                              "bincount",
                                              "histc",
                                              "cumulative_trapezoid",
                                              "cummax",
                                              "cummin",
                                              "median"};
  return names.count(name) > 0;
}

struct Match {
  Rule rule;
  std::string what;
};

std::vector<Match> classify(const SourceToken& t) {
  std::vector<Match> m;
  const std::string& n = t.name;
  const std::string full = t.qualifier.empty() ? n : t.qualifier + "::" + n;
  const bool member = t.before == '.' || t.before == '>';
  const bool std_q = t.qualifier == "std" || starts(t.qualifier, "std::");
  if (starts(n, "cudaStreamCreate") || n == "getStreamFromPool" || n == "cudaLaunchHostFunc" ||
      n == "cudaStreamAddCallback" || n == "cuStreamCreate" || n == "cuStreamCreateWithPriority")
    m.push_back({Rule::streams, full});
  if ((std_q && in(n, {"thread", "jthread", "async"})) || n == "pthread_create" || n == "thrd_create" ||
      (n == "detach" && member))
    m.push_back({Rule::threads, member ? "." + n : full});
  if (!member && t.call && in(n, {"fork",        "vfork",        "execl",
                                  "execlp",      "execle",       "execv",
                                  "execvp",      "execve",       "execvpe",
                                  "fexecve",     "system",       "popen",
                                  "posix_spawn", "posix_spawnp", "kill",
                                  "killpg",      "raise",        "ptrace",
                                  "clone",       "clone3",       "daemon",
                                  "setsid",      "prctl",        "syscall",
                                  "tgkill",      "pidfd_open",   "pidfd_send_signal"}))
    m.push_back({Rule::processes, full});
  if (in(n, {"getenv", "secure_getenv", "environ", "__environ", "setenv", "putenv", "unsetenv", "clearenv"}))
    m.push_back({Rule::environment, full});
  if (in(n, {"clock_gettime", "gettimeofday", "cudaEventElapsedTime", "cuEventElapsedTime", "__rdtsc", "__rdtscp",
             "rdtsc", "timespec_get", "getrusage", "times"}) ||
      (std_q && t.qualifier.find("chrono") != std::string::npos) ||
      (!member && t.call && in(n, {"clock", "time"}) && (t.qualifier.empty() || std_q)))
    m.push_back({Rule::timers, full});
  if (!member &&
      in(n, {"signal", "sigaction", "sigset", "sigprocmask", "pthread_sigmask", "sigsetjmp", "siglongjmp", "setjmp",
             "longjmp", "alarm", "setitimer", "timer_create", "signalfd"}) &&
      (t.call || n == "sigaction"))
    m.push_back({Rule::signals, full});
  if (in(n, {"dlopen", "dlsym", "dlvsym", "dlmopen", "dladdr", "dlinfo", "dl_iterate_phdr", "RTLD_NEXT", "RTLD_DEFAULT",
             "cuGetProcAddress", "cudaGetDriverEntryPoint", "cudaGetDriverEntryPointByVersion"}) ||
      starts(n, "cupti"))
    m.push_back({Rule::dynamic_loading, full});
  if (!member && t.call &&
      in(n, {"fopen",    "fopen64",  "freopen", "open",  "open64",   "openat",    "creat",   "unlink", "unlinkat",
             "rename",   "renameat", "mkdir",   "rmdir", "truncate", "ftruncate", "symlink", "link",   "memfd_create",
             "shm_open", "mkstemp",  "tmpfile", "write", "pwrite",   "chmod",     "chown",   "mknod"}) &&
      (t.qualifier.empty() || std_q))
    m.push_back({Rule::file_writes, full});
  if (std_q && in(n, {"ofstream", "fstream", "filebuf", "wofstream"})) m.push_back({Rule::file_writes, full});
  if (std_q && t.qualifier.find("filesystem") != std::string::npos) m.push_back({Rule::file_writes, full});
  const bool torch_q = t.qualifier == "at" || t.qualifier == "torch" || starts(t.qualifier, "at::") ||
                       starts(t.qualifier, "torch::") || t.qualifier == "F";
  if (torch_q && t.call && !allowed_library_function(n, t.qualifier) && !starts(t.qualifier, "torch::jit") &&
      t.qualifier.find("blas") == std::string::npos)
    m.push_back({Rule::library_ops, full});
  if (member && t.call && compute_method(n)) m.push_back({Rule::library_ops, "." + n});
  if (starts(n, "cublas") || starts(n, "cudnn") || starts(n, "cufft") || starts(n, "cusparse") ||
      starts(n, "cusolver") || t.qualifier == "cutlass" || starts(t.qualifier, "cutlass::") || n == "cutlass" ||
      (t.qualifier.find("blas") != std::string::npos && torch_q))
    m.push_back({Rule::vendor_libraries, full});
  if (in(n, {"setAllowTF32CuBLAS", "setAllowTF32CuDNN", "setFloat32MatmulPrecision", "setAllowFP16ReductionCuBLAS",
             "setAllowBF16ReductionCuBLAS", "setFloat32Precision", "cublasSetMathMode", "CUBLAS_TF32_TENSOR_OP_MATH",
             "CUBLAS_COMPUTE_32F_FAST_TF32", "CUBLAS_COMPUTE_32F_FAST_16F", "CUBLAS_COMPUTE_32F_FAST_16BF",
             "CUDNN_FMA_MATH", "allow_tf32"}))
    m.push_back({Rule::precision, full});
  if (in(n, {"cudaLimitPersistingL2CacheSize", "accessPolicyWindow", "cudaStreamAttributeAccessPolicyWindow",
             "cudaKernelNodeAttributeAccessPolicyWindow", "cudaLaunchAttributeAccessPolicyWindow",
             "cudaAccessPropertyPersisting", "cudaCtxResetPersistingL2Cache", "CU_LIMIT_PERSISTING_L2_CACHE_SIZE",
             "cudaDevAttrMaxPersistingL2CacheSize"}))
    m.push_back({Rule::cache_control, full});
  return m;
}

// The offsets of asm statements outside __device__ and __global__ functions.
std::vector<std::pair<size_t, std::string>> host_asm(const std::string& code) {
  std::vector<std::pair<size_t, std::string>> out;
  // Mark each brace block at depth 0 as device code or not, by the text of
  // its declaration (from the end of the last statement or block at depth 0).
  std::vector<std::pair<size_t, size_t>> device_ranges;
  int depth = 0;
  size_t decl_start = 0, block_start = 0;
  bool device_block = false;
  for (size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    if (c == '{') {
      if (depth == 0) {
        // By whole words: a host function named my__device__fn is host code,
        // and so is a __host__ __device__ one.
        bool global = false, device = false, host = false, scope = false;
        for (const SourceToken& d : source_tokens(code.substr(decl_start, i - decl_start))) {
          global = global || d.name == "__global__";
          device = device || d.name == "__device__";
          host = host || d.name == "__host__";
          // A namespace or extern "C" block is not a function: its members decide for themselves.
          scope = scope || d.name == "namespace" || d.name == "extern";
        }
        device_block = global || (device && !host);
        if (scope) {
          decl_start = i + 1;
          continue;  // stays at depth 0
        }
        block_start = i;
      }
      ++depth;
    } else if (c == '}') {
      if (depth == 0) {  // the end of a namespace block
        decl_start = i + 1;
        continue;
      }
      if (--depth == 0) {
        if (device_block) device_ranges.push_back({block_start, i});
        decl_start = i + 1;
      }
    } else if (c == ';' && depth == 0) {
      decl_start = i + 1;
    }
  }
  for (const SourceToken& t : source_tokens(code)) {
    if (!in(t.name, {"asm", "__asm__", "__asm"})) continue;
    bool device = std::any_of(device_ranges.begin(), device_ranges.end(),
                              [&](const auto& r) { return t.pos > r.first && t.pos < r.second; });
    if (!device) out.push_back({t.pos, t.name});
  }
  return out;
}

// The offsets of includes a kernel has no use for: of an absolute path, of
// a parent folder, of a device, or of a path a macro builds (#include P with
// #define P </etc/shadow>); and asm's .incbin and .include, which embed a
// file into the object wherever the asm stands. The compile sandbox sees no
// file worth embedding; this says why before it runs.
std::vector<std::pair<size_t, std::string>> include_paths(const std::string& with_strings) {
  std::vector<std::pair<size_t, std::string>> out;
  size_t line_start = 0;
  while (line_start < with_strings.size()) {
    size_t end = with_strings.find('\n', line_start);
    if (end == std::string::npos) end = with_strings.size();
    std::string_view line(with_strings.data() + line_start, end - line_start);
    size_t k = line.find_first_not_of(" \t");
    if (k != std::string_view::npos && line[k] == '#') {
      k = line.find_first_not_of(" \t", k + 1);
      size_t word_end = k == std::string_view::npos ? k : line.find_first_of(" \t<\"", k);
      std::string_view word = k == std::string_view::npos ? std::string_view() : line.substr(k, word_end - k);
      if (word == "include" || word == "include_next" || word == "import" || word == "embed") {
        size_t p = word_end == std::string_view::npos ? line.size() : line.find_first_not_of(" \t", word_end);
        std::string_view path = p == std::string_view::npos ? std::string_view() : line.substr(p);
        while (!path.empty() && (path.back() == ' ' || path.back() == '\t' || path.back() == '\r'))
          path.remove_suffix(1);
        const bool quoted = !path.empty() && (path[0] == '<' || path[0] == '"');
        const std::string_view inner = quoted && path.size() >= 2 ? path.substr(1, path.size() - 2) : path;
        if (!quoted || inner.empty() || inner[0] == '/' || inner.find("..") != std::string_view::npos ||
            inner.find('\\') != std::string_view::npos)
          out.push_back({line_start + k, "#" + std::string(word) + " " + std::string(path.substr(0, 60))});
      }
    }
    line_start = end + 1;
  }
  for (std::string_view directive : {".incbin", ".include"})
    for (size_t p = with_strings.find(directive); p != std::string::npos; p = with_strings.find(directive, p + 1))
      out.push_back({p, std::string(directive)});
  return out;
}

int line_of(const std::string& s, size_t pos) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<long>(std::min(pos, s.size())), '\n'));
}

}  // namespace

std::string to_string(Rule rule) {
  return kNames[static_cast<size_t>(rule)];
}

base::Result<Rule> parse_rule(const std::string& name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (name == kNames[i]) return static_cast<Rule>(i);
  std::string all;
  for (const char* k : kNames) all += (all.empty() ? "" : ", ") + std::string(k);
  return base::Error("unknown static check '" + name + "' (one of " + all + ")");
}

std::string to_string(RuleAction action) {
  switch (action) {
    case RuleAction::off:
      return "off";
    case RuleAction::warn:
      return "warn";
    case RuleAction::reject:
      return "reject";
  }
  return "off";
}

base::Result<RuleAction> parse_rule_action(const std::string& name) {
  if (name == "off") return RuleAction::off;
  if (name == "warn") return RuleAction::warn;
  if (name == "reject") return RuleAction::reject;
  return base::Error("unknown action '" + name + "' (off, warn or reject)");
}

StaticPolicy::StaticPolicy() {
  for (Rule r : {Rule::processes, Rule::environment, Rule::proc_files, Rule::signals, Rule::dynamic_loading,
                 Rule::host_asm, Rule::file_writes, Rule::cache_control})
    actions[r] = RuleAction::reject;
  actions[Rule::include_paths] = RuleAction::reject;
  actions[Rule::patching] = RuleAction::reject;
  for (Rule r : {Rule::streams, Rule::threads, Rule::timers, Rule::precision}) actions[r] = RuleAction::warn;
  for (Rule r : {Rule::library_ops, Rule::vendor_libraries}) actions[r] = RuleAction::off;
}

RuleAction StaticPolicy::action(Rule rule) const {
  auto it = actions.find(rule);
  return it == actions.end() ? RuleAction::off : it->second;
}

base::Status apply_policy(StaticPolicy& policy, const std::string& spec) {
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    std::string item = spec.substr(start, end - start);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    start = end + 1;
    if (item.empty()) continue;
    if (item == "off") item = "all=off";
    const size_t eq = item.find('=');
    if (eq == std::string::npos) return base::Error("static checks: '" + item + "' is not RULE=ACTION or off");
    auto action = parse_rule_action(item.substr(eq + 1));
    if (!action) return action.error().wrap("static checks: " + item);
    if (item.substr(0, eq) == "all") {
      for (int i = 0; i < kRuleCount; ++i) policy.actions[static_cast<Rule>(i)] = *action;
      continue;
    }
    auto rule = parse_rule(item.substr(0, eq));
    if (!rule) return rule.error().wrap("static checks: " + item);
    policy.actions[*rule] = *action;
  }
  return {};
}

std::vector<Finding> scan_source(const std::string& source, const StaticPolicy& policy) {
  const std::string code = blank_comments(source, false);
  const std::string with_strings = blank_comments(source, true);
  std::vector<std::tuple<size_t, Rule, std::string>> hits;
  for (const SourceToken& t : source_tokens(code))
    for (Match& m : classify(t)) hits.emplace_back(t.pos, m.rule, std::move(m.what));
  for (auto& [pos, what] : host_asm(code)) hits.emplace_back(pos, Rule::host_asm, what);
  // Paths: a string literal naming /proc, /sys or /dev (the literal's text is
  // only in with_strings; code has its quotes).
  for (std::string_view dir : {"/proc", "/sys/", "/dev/"}) {
    for (size_t p = with_strings.find(dir); p != std::string::npos; p = with_strings.find(dir, p + 1)) {
      if (code[p] != ' ') continue;  // outside a literal (code keeps code, blanks literal contents)
      hits.emplace_back(p, Rule::proc_files, "\"" + std::string(dir) + "...\"");
    }
  }
  for (auto& [pos, what] : include_paths(with_strings)) hits.emplace_back(pos, Rule::include_paths, what);
  std::sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  std::vector<Finding> out;
  std::set<std::pair<int, int>> seen;  // one finding per rule and line: the first token
  for (auto& [pos, rule, what] : hits) {
    RuleAction action = policy.action(rule);
    if (action == RuleAction::off) continue;
    int line = line_of(source, pos);
    if (!seen.insert({static_cast<int>(rule), line}).second) continue;
    out.push_back({rule, action, line, what, why(rule)});
  }
  return out;
}

std::string candidate_lines(const std::string& preprocessed, const std::string& file_name) {
  std::vector<std::string> lines;  // [line - 1]
  bool own = false;
  long at = 1;  // the source line the next output line stands for
  size_t start = 0;
  auto is_own = [&](std::string_view path) {
    return path == file_name || (path.size() > file_name.size() && path[path.size() - file_name.size() - 1] == '/' &&
                                 path.substr(path.size() - file_name.size()) == file_name);
  };
  while (start < preprocessed.size()) {
    size_t end = preprocessed.find('\n', start);
    if (end == std::string::npos) end = preprocessed.size();
    std::string_view line(preprocessed.data() + start, end - start);
    start = end + 1;
    // A line marker: # 12 "file" flags (g++ -E), or #line 12 "file".
    if (!line.empty() && line[0] == '#') {
      std::string_view rest = line.substr(1);
      if (rest.rfind("line", 0) == 0) rest.remove_prefix(4);
      size_t d = rest.find_first_not_of(' ');
      if (d != std::string_view::npos && std::isdigit(static_cast<unsigned char>(rest[d]))) {
        long number = std::strtol(std::string(rest.substr(d, 12)).c_str(), nullptr, 10);
        size_t q1 = rest.find('"'), q2 = q1 == std::string_view::npos ? q1 : rest.find('"', q1 + 1);
        if (q2 != std::string_view::npos) own = is_own(rest.substr(q1 + 1, q2 - q1 - 1));
        at = number;
        continue;
      }
      if (rest.rfind("pragma", 0) == 0 && !own) continue;
    }
    if (own && at >= 1 && at <= 1000000) {
      if (lines.size() < static_cast<size_t>(at)) lines.resize(static_cast<size_t>(at));
      std::string& slot = lines[static_cast<size_t>(at - 1)];
      slot += slot.empty() ? std::string(line) : " " + std::string(line);
    }
    ++at;
  }
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

std::vector<Finding> scan_preprocessed(const std::string& own_lines, const std::vector<Finding>& source_findings,
                                       const StaticPolicy& policy) {
  StaticPolicy hidden;  // every rule off ...
  (void)apply_policy(hidden, "off");
  for (Rule r : {Rule::processes, Rule::environment, Rule::proc_files, Rule::signals, Rule::dynamic_loading,
                 Rule::host_asm, Rule::file_writes, Rule::cache_control})
    hidden.actions[r] = policy.action(r);  // ... but those a macro could hide
  std::vector<Finding> out;
  for (Finding& f : scan_source(own_lines, hidden)) {
    bool known = std::any_of(source_findings.begin(), source_findings.end(),
                             [&](const Finding& s) { return s.rule == f.rule && s.line == f.line; });
    if (known) continue;
    f.what += " (after the preprocessor)";
    out.push_back(std::move(f));
  }
  return out;
}

std::string describe(const Finding& f) {
  return "line " + std::to_string(f.line) + ": " + f.what + " (" + to_string(f.rule) + ", " + to_string(f.action) +
         "): " + f.why;
}

std::string rejection_message(const std::vector<Finding>& findings) {
  for (const Finding& f : findings)
    if (f.action == RuleAction::reject)
      return "static check '" + to_string(f.rule) + "': line " + std::to_string(f.line) + " uses " + f.what + "; " +
             f.why;
  return "";
}

}  // namespace eval
