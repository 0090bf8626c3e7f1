// Static checks on a candidate's source, before it is compiled
// (docs/integrity.md): each rule names a thing a kernel written to win the
// benchmark rather than to be fast might do (start a stream or a thread that
// outlives forward, read the environment or /proc, time itself, catch
// signals, load libraries, write files, call the library ops the reference
// is made of) and finds where the source does it.
//
// The scan is lexical: comments are dropped, string literals kept only for
// the rules about paths. It runs twice: on the source as written, before
// anything compiles, and on the candidate's own lines as the compiler's
// preprocessor left them (scan_preprocessed), where a name built by token
// pasting or by a header's macro is spelt out. The sandbox and the runtime
// checks are what bind; these findings say early, and to the model, what
// to change. Each rule's
// action is a campaign setting: off, warn (the finding goes into the
// attempt's record and the feedback) or reject (the candidate is `rejected`
// before it is compiled, the message naming the rule and the line).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/result.h"

namespace eval {

enum class Rule {
  streams,           // cudaStreamCreate*, at::cuda::getStreamFromPool, cudaLaunchHostFunc ...
  threads,           // std::thread, pthread_create, std::async, OpenMP is not counted
  processes,         // fork, exec*, system, popen, kill, raise
  environment,       // getenv, environ, secure_getenv
  proc_files,        // "/proc/", "/sys/", "/dev/" in a string
  timers,            // clock_gettime, std::chrono clocks, cudaEventElapsedTime, rdtsc, gettimeofday
  signals,           // signal, sigaction, set handlers
  dynamic_loading,   // dlopen, dlsym, dlvsym, RTLD_*
  host_asm,          // asm(...) outside a __device__/__global__ function
  file_writes,       // fopen/open/ofstream/fwrite/write/unlink/rename...
  library_ops,       // torch::/at:: compute ops and tensor compute methods (the reference's own library)
  vendor_libraries,  // cuBLAS, cuDNN, cuBLASLt, cuFFT, CUTLASS
  precision,         // TF32 and reduced-precision switches: setAllowTF32CuBLAS, cublasSetMathMode ...
  cache_control,     // persisting-L2 carve-outs and access policy windows
  include_paths,     // #include of an absolute path, a parent folder, a device or a macro; .incbin/.include in asm
  patching,          // Python: assigning over what torch, time, sys or builtins hold (clocks, the harness's calls)
};
inline constexpr int kRuleCount = 16;

enum class RuleAction { off, warn, reject };

std::string to_string(Rule rule);
base::Result<Rule> parse_rule(const std::string& name);
std::string to_string(RuleAction action);
base::Result<RuleAction> parse_rule_action(const std::string& name);

// One action per rule. The defaults: reject what no honest kernel needs
// (processes, the environment, /proc, signals, dlopen, host asm, file
// writes, cache control), warn where an honest kernel may have a reason
// (streams, threads, timers, precision switches), allow the libraries (library_ops, vendor_libraries: off) unless
// the campaign forbids them.
struct StaticPolicy {
  std::map<Rule, RuleAction> actions;
  StaticPolicy();
  RuleAction action(Rule rule) const;
  bool operator==(const StaticPolicy&) const = default;
};

// "off" (every rule off), "all=ACTION", or RULE=ACTION pairs between commas,
// applied over `policy` in order: the flag --static-checks and its config key.
base::Status apply_policy(StaticPolicy& policy, const std::string& spec);

struct Finding {
  Rule rule;
  RuleAction action;  // warn or reject (off rules find nothing)
  int line = 0;       // 1-based, in the candidate's source
  std::string what;   // the token found: "cudaStreamCreate", "getenv", "at::matmul"
  std::string why;    // one sentence for the model: what the rule is for and what to do instead
};

// Every finding of every rule not off, in source order (one per rule and
// line: its first token).
std::vector<Finding> scan_source(const std::string& source, const StaticPolicy& policy);

// The candidate's own lines of a preprocessor's output (what g++ -E, or
// nvcc's host preprocessing, wrote for the candidate's translation unit),
// each at its line in the source it came from, by the line markers
// (`# 12 "candidate.cu"`); lines of headers are left out. Macros are
// expanded there: a name built by token pasting or by a header's macro
// (C10_CONCATENATE(get, env)) is spelt out.
std::string candidate_lines(const std::string& preprocessed, const std::string& file_name);

// The rules whose names a macro could hide (processes, environment,
// proc_files, signals, dynamic_loading, host_asm, file_writes,
// cache_control), run over candidate_lines(); findings that scan_source()
// already made of the source itself (same rule and line) are left out. The
// others (library ops, streams, timers ...) are not run there: the
// expansions of LibTorch's own macros would trip them.
std::vector<Finding> scan_preprocessed(const std::string& own_lines, const std::vector<Finding>& source_findings,
                                       const StaticPolicy& policy);

// The rules for a Python module (python_checks.cc): the same rules, as
// Python spells them (subprocess, os.environ, ctypes, open, threading,
// time.perf_counter, assignments over torch.* ...), and the C family's rules
// on every string literal that holds C++ or CUDA source (what load_inline
// compiles), at its lines in the module.
std::vector<Finding> scan_python(const std::string& source, const StaticPolicy& policy);

// What a rule is for, as one sentence for the model.
const char* rule_why(Rule rule);

// The finding as one line: "line 12: cudaStreamCreate (streams): ...".
std::string describe(const Finding& finding);

// The message of a rejection for the first rejecting finding, or "" when none rejects.
std::string rejection_message(const std::vector<Finding>& findings);

}  // namespace eval
