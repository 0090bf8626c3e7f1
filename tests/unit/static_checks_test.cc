#include <doctest/doctest.h>

#include "eval/build/static_checks.h"
#include "test_support.h"

using eval::Finding;
using eval::Rule;
using eval::RuleAction;
using eval::scan_source;
using eval::StaticPolicy;

namespace {

StaticPolicy all(RuleAction action) {
  StaticPolicy p;
  for (auto& [rule, a] : p.actions) a = action;
  return p;
}

std::vector<std::string> rules_of(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings)
    out.push_back(eval::to_string(f.rule) + ":" + f.what + "@" + std::to_string(f.line));
  return out;
}

}  // namespace

TEST_SUITE("eval::scan_source") {
  TEST_CASE("each rule finds its token, on its line") {
    const std::string src =
        "#include <torch/torch.h>\n"                        // 1
        "#include <cublas_v2.h>\n"                          // 2
        "torch::Tensor forward(torch::Tensor x) {\n"        // 3
        "  cudaStream_t s; cudaStreamCreate(&s);\n"         // 4
        "  std::thread t([] {}); t.detach();\n"             // 5
        "  if (fork() == 0) system(\"true\");\n"            // 6
        "  const char* k = getenv(\"HOME\");\n"             // 7
        "  FILE* f = fopen(\"/proc/self/maps\", \"r\");\n"  // 8
        "  auto t0 = std::chrono::steady_clock::now();\n"   // 9
        "  signal(SIGTERM, SIG_IGN);\n"                     // 10
        "  void* h = dlopen(\"libc.so.6\", RTLD_NOW);\n"    // 11
        "  asm volatile(\"\" ::: \"memory\");\n"            // 12
        "  std::ofstream out(\"x\");\n"                     // 13
        "  return at::relu(x) + x.matmul(x);\n"             // 14
        "}\n";
    auto got = rules_of(scan_source(src, all(RuleAction::warn)));
    std::vector<std::string> want = {"vendor_libraries:cublas_v2@2",
                                     "streams:cudaStreamCreate@4",
                                     "threads:std::thread@5",
                                     "processes:fork@6",
                                     "environment:getenv@7",
                                     "file_writes:fopen@8",
                                     "proc_files:\"/proc...\"@8",
                                     "timers:std::chrono::steady_clock@9",
                                     "signals:signal@10",
                                     "dynamic_loading:dlopen@11",
                                     "host_asm:asm@12",
                                     "file_writes:std::ofstream@13",
                                     "library_ops:at::relu@14"};
    CHECK(got == want);
    // One finding per rule and line; a compute method is a library op too.
    CHECK(rules_of(scan_source("torch::Tensor forward(torch::Tensor x) {\n  return x.matmul(x).relu();\n}\n",
                               all(RuleAction::warn))) == std::vector<std::string>{"library_ops:.matmul@2"});
  }

  TEST_CASE("precision switches are found (warn by default); cache carve-outs are rejected") {
    const std::string src =
        "torch::Tensor forward(torch::Tensor a, torch::Tensor b) {\n"
        "  at::globalContext().setAllowTF32CuBLAS(true);\n"
        "  cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 1 << 20);\n"
        "  return a;\n"
        "}\n";
    auto findings = scan_source(src, StaticPolicy{});
    CHECK(rules_of(findings) ==
          std::vector<std::string>{"precision:setAllowTF32CuBLAS@2", "cache_control:cudaLimitPersistingL2CacheSize@3"});
    CHECK(findings[0].action == RuleAction::warn);
    CHECK(eval::rejection_message(findings).rfind("static check 'cache_control': line 3 uses ", 0) == 0);
  }

  TEST_CASE("comments and the words inside strings are not code") {
    const std::string src =
        "// getenv, fork() and cudaStreamCreate in a comment\n"
        "/* dlopen(\"x\") */\n"
        "const char* msg = \"call system() or getenv()? no\";\n"
        "auto raw = R\"(fopen(\"f\") asm(\"\"))\";\n"
        "int n = 1'000'000;\n"
        "torch::Tensor forward(torch::Tensor x) { return x; }\n";
    CHECK(scan_source(src, all(RuleAction::warn)).empty());
  }

  TEST_CASE("asm inside device code is the kernel's own; in host code it is found") {
    const std::string src =
        "namespace k {\n"
        "__global__ void relu(const float* x, float* y, int n) {\n"
        "  int i; asm(\"mov.u32 %0, %%tid.x;\" : \"=r\"(i));\n"
        "  if (i < n) y[i] = x[i] > 0 ? x[i] : 0;\n"
        "}\n"
        "__device__ __forceinline__ float ld(const float* p) { float v; asm volatile(\"ld.global.nc.f32 %0, [%1];\" : "
        "\"=f\"(v) : \"l\"(p)); return v; }\n"
        "}  // namespace k\n"
        "static unsigned long long host_ticks() { unsigned lo, hi; __asm__ volatile(\"rdtsc\" : \"=a\"(lo), "
        "\"=d\"(hi)); return lo; }\n";
    auto got = rules_of(scan_source(src, all(RuleAction::warn)));
    CHECK(got == std::vector<std::string>{"host_asm:__asm__@8"});
  }

  TEST_CASE("what a kernel of one's own still needs from LibTorch is no library op") {
    const std::string src =
        "#include <torch/extension.h>\n"
        "#include <ATen/cuda/CUDAContext.h>\n"
        "torch::Tensor forward(torch::Tensor x) {\n"
        "  auto y = torch::empty_like(x);\n"
        "  auto z = at::zeros({4}, x.options().dtype(at::kFloat));\n"
        "  auto stream = at::cuda::getCurrentCUDAStream();\n"
        "  c10::cuda::CUDAGuard guard(x.device());\n"
        "  TORCH_CHECK(x.is_contiguous(), \"x must be contiguous\");\n"
        "  float m = std::max(1.0f, std::numeric_limits<float>::max());\n"
        "  y = y.view({-1}).contiguous();\n"
        "  return y.reshape(x.sizes());\n"
        "}\n";
    auto policy = all(RuleAction::reject);
    CHECK(rules_of(scan_source(src, policy)).empty());
  }

  TEST_CASE("the defaults: off rules find nothing, rejection names the first rejecting rule") {
    const std::string src =
        "#include <cublas_v2.h>\n"
        "torch::Tensor forward(torch::Tensor x) {\n"
        "  cudaStream_t s; cudaStreamCreate(&s);\n"
        "  const char* key = getenv(\"OPENAI_API_KEY\");\n"
        "  return at::gelu(x);\n"
        "}\n";
    auto findings = scan_source(src, StaticPolicy{});
    CHECK(rules_of(findings) == std::vector<std::string>{"streams:cudaStreamCreate@3", "environment:getenv@4"});
    CHECK(findings[0].action == RuleAction::warn);
    CHECK(findings[1].action == RuleAction::reject);
    CHECK(eval::rejection_message(findings) ==
          "static check 'environment': line 4 uses getenv; the environment holds nothing a kernel needs (and never "
          "the harness's secrets); remove the lookup");
    CHECK(eval::describe(findings[0]).rfind("line 3: cudaStreamCreate (streams, warn): ", 0) == 0);

    StaticPolicy strict;
    strict.actions[Rule::library_ops] = RuleAction::reject;
    strict.actions[Rule::vendor_libraries] = RuleAction::reject;
    CHECK(rules_of(scan_source(src, strict)) ==
          std::vector<std::string>{"vendor_libraries:cublas_v2@1", "streams:cudaStreamCreate@3", "environment:getenv@4",
                                   "library_ops:at::gelu@5"});
  }

  TEST_CASE("includes of a path, a device or a macro, and embedded files, are rejected; headers by name are not") {
    const std::string src =
        "#include <torch/extension.h>\n"                                         // 1: a header by name
        "#include </etc/shadow>\n"                                               // 2
        "#  include \"../../secret.h\"\n"                                        // 3
        "#define P </dev/zero>\n"                                                // 4
        "#include P\n"                                                           // 5: a path a macro builds
        "#include_next </proc/self/environ>\n"                                   // 6
        "// #include </etc/passwd> in a comment\n"                               // 7
        "__device__ void k() { asm(\".incbin \\\"/root/.ssh/id_rsa\\\"\"); }\n"  // 8
        "#include \"cuda_fp16.h\"\n";                                            // 9
    auto findings = scan_source(src, StaticPolicy{});
    std::vector<std::string> lines;
    for (const Finding& f : findings)
      if (f.rule == Rule::include_paths) lines.push_back(std::to_string(f.line));
    CHECK(lines == std::vector<std::string>{"2", "3", "5", "6", "8"});
    CHECK(eval::rejection_message(findings).rfind("static check 'include_paths': line 2 uses #include </etc/shadow>",
                                                  0) == 0);
  }

  TEST_CASE("host asm is found by whole words: a host function named __device__-something, or __host__ __device__") {
    const std::string src =
        "void my__device__fn() { asm(\"rdtsc\"); }\n"                   // 1: host code
        "__host__ __device__ int both() { asm(\"nop\"); return 0; }\n"  // 2: compiled for the host too
        "__device__ int dev() { asm(\"nop\"); return 0; }\n"            // 3: device only
        "__global__ void my_extern_kernel() { asm(\"nop\"); }\n";       // 4: a kernel, not an extern block
    std::vector<int> lines;
    for (const Finding& f : scan_source(src, StaticPolicy{}))
      if (f.rule == Rule::host_asm) lines.push_back(f.line);
    CHECK(lines == std::vector<int>{1, 2});
  }

  TEST_CASE("the preprocessed candidate: its own lines at their numbers, what macros built spelt out") {
    // As g++ -E writes it: a header's lines between markers, the candidate's
    // macro expanded where it was used.
    const std::string pre =
        "# 1 \"candidate.cpp\"\n"
        "# 1 \"<built-in>\"\n"
        "# 1 \"candidate.cpp\"\n"
        "# 1 \"/usr/include/stdlib.h\" 1 3 4\n"
        "extern char *getenv (const char *__name);\n"
        "# 2 \"candidate.cpp\" 2\n"
        "\n"
        "\n"
        "const char* k() { return getenv(\"HOME\"); }\n"
        "int x = syscall(39);\n";
    const std::string own = eval::candidate_lines(pre, "candidate.cpp");
    CHECK(own == "\n\n\nconst char* k() { return getenv(\"HOME\"); }\nint x = syscall(39);\n");
    // The source as written: CAT(get, env) on line 4, SYS(39) on line 5.
    const std::string src =
        "#include <stdlib.h>\n#define CAT(a, b) a##b\n#define SYS syscall\n"
        "const char* k() { return CAT(get, env)(\"HOME\"); }\nint x = SYS(39);\n";
    auto before = scan_source(src, StaticPolicy{});
    CHECK(before.empty());
    auto after = eval::scan_preprocessed(own, before, StaticPolicy{});
    CHECK(rules_of(after) == std::vector<std::string>{"environment:getenv (after the preprocessor)@4",
                                                      "processes:syscall (after the preprocessor)@5"});
    // Rules a header's macros would trip are not run on the expansion.
    StaticPolicy strict;
    strict.actions[Rule::library_ops] = RuleAction::reject;
    CHECK(eval::scan_preprocessed("auto y = at::relu(x);\n", {}, strict).empty());
    // A finding the source scan made is not made twice.
    auto plain = scan_source("int x = syscall(39);\n", StaticPolicy{});
    CHECK(eval::scan_preprocessed("int x = syscall(39);\n", plain, StaticPolicy{}).empty());
  }

  TEST_CASE("rule and action names parse, and unknown ones say what is known") {
    for (int i = 0; i < eval::kRuleCount; ++i) {
      auto r = static_cast<Rule>(i);
      auto back = eval::parse_rule(eval::to_string(r));
      REQUIRE(back.ok());
      CHECK(*back == r);
    }
    auto bad = eval::parse_rule("stream");
    REQUIRE(!bad.ok());
    CHECK(bad.error().message.find("unknown static check 'stream' (one of streams, threads") == 0);
    CHECK(!eval::parse_rule_action("block").ok());
    CHECK(*eval::parse_rule_action("reject") == RuleAction::reject);
  }

  TEST_CASE("the honest fixtures raise no rejection under the defaults") {
    // Every candidate refinery's own tests treat as honest: none is rejected
    // before it is compiled.
    for (const char* name : {"relu_correct.cpp", "relu_cuda_correct.cu", "published/inline_relu.cu",
                             "published/ext_relu_dispatch.cpp", "published/cublas_matmul.cu"}) {
      CAPTURE(name);
      CHECK(eval::rejection_message(scan_source(test_support::fixture(name), StaticPolicy{})) == "");
    }
  }

  TEST_CASE("the attack fixtures are rejected before they are compiled") {
    for (const char* name : {"attack_forge_result.cpp", "attack_escape.cpp", "attack_steal_secret.cpp",
                             "attack_signal_parent.cpp", "attack_poison_cache.cpp", "relu_reads_secrets.cpp"}) {
      CAPTURE(name);
      CHECK(eval::rejection_message(scan_source(test_support::fixture(name), StaticPolicy{})) != "");
    }
  }
}

TEST_SUITE("eval::scan_python") {
  using test_support::python_fixture;

  TEST_CASE("each Python rule finds its name, on its line, with the C family's rules on inline sources") {
    const std::string module =
        "import subprocess\n"                                // 1
        "import os, time\n"                                  // 2
        "from os import environ\n"                           // 3
        "key = os.environ.get('OPENAI_API_KEY')\n"           // 4
        "# subprocess in a comment is nothing\n"             // 5
        "text = 'subprocess in a string is nothing'\n"       // 6
        "data = open('/proc/self/maps').read()\n"            // 7
        "time.perf_counter = lambda: 0.0\n"                  // 8
        "import ctypes\n"                                    // 9
        "t = threading.Thread(target=print)\n"               // 10
        "src = '''\n"                                        // 11
        "#include <torch/extension.h>\n"                     // 12
        "torch::Tensor f(torch::Tensor x) {\n"               // 13
        "  const char* k = getenv(\"HOME\"); return x; }\n"  // 14
        "'''\n"                                              // 15
        "torch.backends.cuda.matmul.allow_tf32 = True\n"     // 16
        "setattr(torch, 'relu', None)\n"                     // 17
        "x = time.sleep\n";                                  // 18
    auto found = rules_of(eval::scan_python(module, all(RuleAction::warn)));
    const std::vector<std::string> expected = {
        "processes:subprocess@1",       "environment:os.environ@3",
        "environment:os.environ.get@4", "file_writes:open@7",
        "proc_files:\"/proc...\"@7",    "patching:time.perf_counter@8",
        "dynamic_loading:ctypes@9",     "threads:threading.Thread@10",
        "environment:getenv@14",        "precision:torch.backends.cuda.matmul.allow_tf32@16",
        "patching:setattr@17"};
    CHECK_MESSAGE(found == expected, base::join(found, " "));
  }

  TEST_CASE("the attack modules are rejected by their rules; honest modules, load_inline included, pass") {
    auto rejected = [&](const char* name, Rule rule) {
      auto findings = eval::scan_python(python_fixture(name), StaticPolicy{});
      bool hit = false;
      for (const auto& f : findings) hit = hit || (f.rule == rule && f.action == RuleAction::reject);
      CHECK_MESSAGE(hit, name, " not rejected by ", eval::to_string(rule));
    };
    rejected("attack_processes.py", Rule::processes);
    rejected("attack_secrets.py", Rule::environment);
    rejected("attack_secrets.py", Rule::proc_files);
    rejected("attack_clock.py", Rule::patching);
    rejected("attack_files.py", Rule::file_writes);
    for (const char* name : {"relu_plain.py", "relu_inline.py", "conv3d_own_layer.py", "conv3d_other_names.py"}) {
      auto findings = eval::scan_python(python_fixture(name), StaticPolicy{});
      CHECK_MESSAGE(findings.empty(), name, ": ", (findings.empty() ? "" : eval::describe(findings[0])));
    }
  }
}
