#include <doctest/doctest.h>

#include <signal.h>
#include <sys/resource.h>

#include "base/process_caps.h"

namespace {

base::ProcessResult failed(const std::string& err, int signal = 0) {
  base::ProcessResult r;
  r.exit_code = signal ? -1 : 1;
  r.signal = signal;
  r.err = err;
  return r;
}

}  // namespace

TEST_SUITE("base::ProcessCaps") {
  TEST_CASE("become limits: address space, CPU time with a later hard limit, file size, processes, no core") {
    base::ProcessCaps caps;
    caps.memory_bytes = 4ull << 30;
    caps.cpu_seconds = 100;
    caps.file_bytes = 1 << 20;
    caps.processes = 64;
    auto limits = base::limits(caps);
    auto find = [&](int resource) {
      for (const auto& l : limits)
        if (l.resource == resource) return l;
      return base::ResourceLimit{-1, 0};
    };
    CHECK(find(RLIMIT_AS).value == 4ull << 30);
    CHECK(find(RLIMIT_CPU).value == 100);
    CHECK(find(RLIMIT_CPU).hard == 105);
    CHECK(find(RLIMIT_FSIZE).value == 1 << 20);
    CHECK(find(RLIMIT_NPROC).value == 64);
    CHECK(find(RLIMIT_CORE).value == 0);
    caps.private_memory_only = true;  // the same cap on what is allocated, not on what is reserved
    const size_t before = limits.size();
    limits = base::limits(caps);
    CHECK(find(RLIMIT_AS).resource == -1);
    CHECK(find(RLIMIT_DATA).value == 4ull << 30);
    CHECK(limits.size() == before);
    caps = base::ProcessCaps{0, 0, 0, 0};
    CHECK(base::limits(caps).size() == 1);  // the core dump's only
  }

  TEST_CASE("are described in one line") {
    CHECK(base::describe(base::ProcessCaps{}) == "memory 6 GiB, cpu 240 s, file 256 MiB, processes 512");
    CHECK(base::describe(base::ProcessCaps{3ull << 29, 0, 0, 0}) ==
          "memory 1.5 GiB, cpu none, file none, processes none");
    base::ProcessCaps gpu;
    gpu.private_memory_only = true;
    CHECK(base::describe(gpu) == "private memory 6 GiB, cpu 240 s, file 256 MiB, processes 512");
  }

  TEST_CASE("name the memory cap from what gcc, cicc and Python say") {
    base::ProcessCaps caps;
    for (const char* said : {"cc1plus: out of memory allocating 65536 bytes after a total of 1073741824 bytes",
                             "virtual memory exhausted: Cannot allocate memory",
                             "/usr/include/c++/12/type_traits(841): catastrophic error: out of memory",
                             "terminate called after throwing an instance of 'std::bad_alloc'", "MemoryError"})
      CHECK_MESSAGE(base::exceeded_cap(failed(said), caps) == "memory cap (6 GiB)", said);
    // cudafe++ short of memory while it reports (seen at 2 GiB on <torch/torch.h>): the count alone.
    CHECK(base::exceeded_cap(failed("1 catastrophic error detected in the compilation of \"candidate.cu\".\n"
                                    "Compilation terminated.\n"),
                             caps) == "memory cap (6 GiB)");
    // A catastrophic error that says what it was is not the cap.
    CHECK_FALSE(base::exceeded_cap(failed("candidate.cu(1): catastrophic error: cannot open source file \"x.h\"\n"
                                          "1 catastrophic error detected in the compilation of \"candidate.cu\".\n"),
                                   caps));
  }

  TEST_CASE("name the memory cap from the memory cgroup's OOM kills, whichever process it ended") {
    base::ProcessCaps caps;
    auto killed = failed("", SIGKILL);  // the step itself
    killed.memory_cgroup_bytes = 6ull << 30;
    killed.memory_cgroup_oom = true;
    CHECK(base::exceeded_cap(killed, caps) == "memory cap (6 GiB, its cgroup's OOM killer)");
    auto child = failed("g++: fatal error: Killed signal terminated program cc1plus");  // a process it started
    child.memory_cgroup_bytes = 1ull << 30;
    child.memory_cgroup_oom = true;
    CHECK(base::exceeded_cap(child, caps) == "memory cap (1 GiB, its cgroup's OOM killer)");
    child.memory_cgroup_oom = false;  // in a cgroup, but killed by another
    CHECK_FALSE(base::exceeded_cap(child, caps));
  }

  TEST_CASE("name the CPU time cap from SIGXCPU, from the driver's words, or from SIGKILL at the cap") {
    base::ProcessCaps caps;
    caps.cpu_seconds = 2;
    CHECK(base::exceeded_cap(failed("", SIGXCPU), caps) == "CPU time cap (2 s)");
    CHECK(base::exceeded_cap(failed("g++: internal compiler error: CPU time limit exceeded signal terminated program "
                                    "cc1plus"),
                             caps) == "CPU time cap (2 s)");
    CHECK(base::exceeded_cap(failed("nvcc error   : 'cicc' died due to signal 24"), caps) == "CPU time cap (2 s)");
    auto killed = failed("", SIGKILL);
    killed.cpu_seconds = 7.1;
    CHECK(base::exceeded_cap(killed, caps) == "CPU time cap (2 s)");
    killed.cpu_seconds = 0.5;  // the OOM killer, not the cap
    CHECK_FALSE(base::exceeded_cap(killed, caps));
  }

  TEST_CASE("name the file size cap from SIGXFSZ, from the driver's words, or from EFBIG") {
    base::ProcessCaps caps;
    CHECK(base::exceeded_cap(failed("", SIGXFSZ), caps) == "file size cap (256 MiB)");
    CHECK(base::exceeded_cap(
              failed("c++: internal compiler error: File size limit exceeded signal terminated program as"), caps) ==
          "file size cap (256 MiB)");
    CHECK(base::exceeded_cap(failed("/usr/bin/ld: final link failed: File too large"), caps) ==
          "file size cap (256 MiB)");
  }

  TEST_CASE("a source line the compiler quotes is not the compiler speaking") {
    auto quoted = failed(
        "a.cpp:3:1: error: 'x' was not declared in this scope\n"
        "    3 | x; // out of memory\n"
        "      | ^\n");
    CHECK_FALSE(base::exceeded_cap(quoted, base::ProcessCaps{}));
  }

  TEST_CASE("a success, a timeout, an ordinary error and an unset cap are no cap") {
    base::ProcessCaps caps;
    base::ProcessResult ok;
    ok.exit_code = 0;
    ok.err = "out of memory";  // a warning's text, say: it succeeded
    CHECK_FALSE(base::exceeded_cap(ok, caps));
    auto timed_out = failed("", SIGKILL);
    timed_out.timed_out = true;
    timed_out.cpu_seconds = 1000;
    CHECK_FALSE(base::exceeded_cap(timed_out, caps));
    CHECK_FALSE(base::exceeded_cap(failed("a.cpp:1:1: error: 'y' was not declared in this scope"), caps));
    caps.memory_bytes = 0;
    CHECK_FALSE(base::exceeded_cap(failed("virtual memory exhausted: Cannot allocate memory"), caps));
  }
}
