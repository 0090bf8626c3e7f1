// The eight attacks of the verdict issue, each tried by a candidate (real
// compiler, real judge and runner, real sandbox): none may come out correct,
// and each must leave refinery, its cache and its next evaluation unharmed:
// the next honest candidate is correct, the next wrong one a mismatch, the
// cache's objects still match their digests, and no runner is left alive.
//
// Included once by the cpu suite (tests/integration/attacks_cpu_test.cc) and
// once by the cuda suite (tests/gpu/attacks_cuda_test.cc), each of which
// defines ATTACK_SUITE and, before including, the functions of namespace
// attacks declared below.
#pragma once

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/sha256.h"
#include "base/subprocess.h"
#include "test_support.h"

namespace attacks {
test_support::RealEvaluator& evaluator();  // the backend's evaluator, small size
const char* backend();                     // "cpu" or "cuda"
const char* binary();                      // refinery, for the command-line case
const char* honest();                      // an honest ReLU fixture for the backend
}  // namespace attacks

using eval::Status;
using test_support::fixture;
using test_support::replace_all;

namespace {

std::string attack(const std::string& name) {
  return replace_all(fixture(name), "@CACHE@", test_support::cache_dir());
}

// Every object in the cache still matches the digest recorded when refinery wrote it.
void check_cache_intact() {
  namespace fs = std::filesystem;
  int checked = 0;
  for (const auto& e : fs::recursive_directory_iterator(test_support::cache_dir() + "/objects")) {
    if (e.path().filename() == "lib.so.old") FAIL("a planted file in the cache: " << e.path());
    if (e.path().filename() != "meta.json") continue;
    auto meta = nlohmann::json::parse(*base::read_file(e.path().string()), nullptr, false);
    if (!meta.value("ok", false)) continue;
    // One library (lib.so, lib_sha256), or a batch's (lib<k>.so, members[k]).
    std::vector<std::pair<fs::path, std::string>> libs;
    if (meta.contains("members") && meta["members"].is_array()) {
      for (size_t k = 0; k < meta["members"].size(); ++k)
        libs.push_back(
            {e.path().parent_path() / ("lib" + std::to_string(k) + ".so"), meta["members"][k].get<std::string>()});
    } else {
      libs.push_back({e.path().parent_path() / "lib.so", meta.value("lib_sha256", "")});
    }
    for (const auto& [lib, digest] : libs) {
      auto actual = base::sha256_file_hex(lib.string());
      CHECK_MESSAGE((actual.ok() && *actual == digest), lib);
    }
    ++checked;
  }
  CHECK(checked > 0);
}

void check_unharmed() {
  auto honest = attacks::evaluator().run("level1/19", fixture(attacks::honest()));
  CHECK_MESSAGE(honest.status == Status::correct, honest.message);
  auto wrong = attacks::evaluator().run("level1/19", fixture("relu_wrong.cpp"));
  CHECK_MESSAGE(wrong.status == Status::mismatch, wrong.message);
  check_cache_intact();
  CHECK(test_support::runners_alive() == 0);
}

}  // namespace

TEST_SUITE(ATTACK_SUITE) {
  TEST_CASE("1. a result file written by the candidate counts for nothing") {
    auto o = attacks::evaluator().run("level1/19", attack("attack_forge_result.cpp"));
    CHECK(o.status == Status::crashed);
    CHECK(o.message == "the runner exited with code 0 during candidate trial 0");
    CHECK_FALSE(o.timing.has_value());
    check_unharmed();
  }

  TEST_CASE("2. the candidate cannot replace a compiled library in the cache") {
    auto o = attacks::evaluator().run("level1/19", attack("attack_poison_cache.cpp"));
    CHECK(o.status == Status::mismatch);
    check_unharmed();
    auto reference = attacks::evaluator().evaluator->evaluate_reference(
        *eval::ProblemIndex(eval::default_problems_root()).find("level1/19"), attacks::evaluator().settings);
    REQUIRE(reference.ok());
    CHECK(reference->status == Status::correct);
  }

  TEST_CASE("3. nothing the candidate starts escapes: no process, no network, no next job") {
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    REQUIRE(listen(listener, 4) == 0);
    socklen_t len = sizeof a;
    getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len);
    std::string source = replace_all(attack("attack_escape.cpp"), "@PORT@", std::to_string(ntohs(a.sin_port)));
    auto o = attacks::evaluator().run("level1/19", source);
    CHECK_MESSAGE(o.status == Status::mismatch, o.message);
    check_unharmed();  // the wrong candidate after it is still a mismatch: no tolerance was loosened
    CHECK_MESSAGE(accept(listener, nullptr, nullptr) < 0, "the candidate reached 127.0.0.1");
    close(listener);
  }

  TEST_CASE("4. no API key is reachable from the candidate, by any path") {
    // Through the command line, so that refinery's own /proc/<pid>/environ holds
    // the key; with the static checks off, so that the sandbox alone must hold.
    const std::string key = "sk-test-attack-4-do-not-leak";
    test_support::TempDir dir;
    std::string candidate = dir.path + "/steal.cpp";
    REQUIRE(base::write_file(candidate, fixture("attack_steal_secret.cpp")).ok());
    base::SpawnOptions so;
    so.argv = {attacks::binary(), "eval",
               "--problem",       "level1/19",
               "--candidate",     candidate,
               "--backend",       attacks::backend(),
               "--cache-dir",     test_support::cache_dir(),
               "--trials",        "1",
               "--no-timing",     "--size",
               "small",           "--json",
               "--static-checks", "off"};
    so.env = eval::current_environment();
    so.env.push_back("OPENAI_API_KEY=" + key);
    so.env.push_back("REFINERY_TEST_TOKEN=" + key);
    so.timeout_seconds = 120;
    auto r = base::run_process(so);
    REQUIRE(r.ok());
    CHECK(r->exit_code == 0);
    auto j = nlohmann::json::parse(r->out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    CHECK(j.value("status", "") == "runtime_error");
    CHECK(j.value("message", "") == "no key found");
    CHECK(r->out.find(key) == std::string::npos);
    CHECK(r->err.find(key) == std::string::npos);
    check_unharmed();
  }

  TEST_CASE("5. an answer cached by pointer or by value fails on fresh timed inputs") {
    auto o = attacks::evaluator().run("level1/19", fixture("attack_cache_by_pointer.cpp"));
    CHECK_MESSAGE(o.status == Status::mismatch, o.message);
    CHECK(o.message.find("the output of timed call ") == 0);
    CHECK(o.message.find("an answer that is not computed from its inputs") != std::string::npos);
    check_unharmed();
  }

  TEST_CASE("6. the candidate can neither kill nor freeze refinery or the judge") {
    auto o = attacks::evaluator().run("level1/19", fixture("attack_signal_parent.cpp"));
    CHECK_MESSAGE(o.status == Status::mismatch, o.message);
    check_unharmed();
  }

  TEST_CASE("7. a time the runner forges buys nothing: the judge's clock bounds it or contradicts it") {
    auto o = attacks::evaluator().run("level1/19", fixture("attack_forge_timing.cpp"));
    // Where the call is long enough for the judge to tell, the claim is contradicted;
    // where it is not (a tiny kernel), every call counts what the judge's clock saw.
    if (o.status == Status::rejected) {
      CHECK(o.message.find("a reported time the judge's clock contradicts") != std::string::npos);
    } else {
      REQUIRE_MESSAGE(o.status == Status::correct, o.message);
      REQUIRE(o.timing.has_value());
      CHECK(o.timing->floored_calls == o.timing->candidate.trials);
      CHECK(o.timing->claimed_median_ms < o.timing->candidate.median_ms);
    }
    check_unharmed();
  }

  TEST_CASE("8. processes, scratch space, the clock and priority are out of reach") {
    auto o = attacks::evaluator().run("level1/19", fixture("attack_resources.cpp"));
    CHECK_MESSAGE(o.status == Status::runtime_error, o.message);
    CHECK(o.message.find("forks=0 ") == 0);
    auto mib = o.message.find("tmp_mib=");
    REQUIRE(mib != std::string::npos);
    CHECK(std::stoi(o.message.substr(mib + 8)) <= 256);
    CHECK(o.message.find("settimeofday=-1 setpriority=-1") != std::string::npos);
    check_unharmed();
  }

  TEST_CASE(
      "9. netlink, vsock, personality, affinity, every mount but the scratch ones and the OOM score are out of reach") {
    auto o = attacks::evaluator().run("level1/19", fixture("attack_kernel_surfaces.cpp"));
    REQUIRE_MESSAGE(o.status == Status::runtime_error, o.message);
    // /tmp and /dev/shm are the runner's own tmpfs mounts; everything else,
    // /sys/fs/cgroup's mounts and those below every bound folder included, is read-only.
    CHECK(o.message ==
          std::string(
              "vsock=EPERM netlink=EPERM personality=EPERM affinity=EPERM cgroup=EROFS oom_score_adj=1000 lower=") +
              // Not dumpable, the runner's /proc/self files belong to root; in a user namespace, to itself.
              (geteuid() == 0 ? "EACCES" : "ok") + " writable: /tmp /dev/shm");
    CHECK(o.sandbox.value("oom_score_adj", 0) == 1000);
    check_unharmed();
  }

  TEST_CASE("every layer of the sandbox applied, as root here") {
    auto o = attacks::evaluator().run("level1/19", fixture(attacks::honest()));
    CHECK_MESSAGE(o.status == Status::correct, o.message);
    CHECK(o.trusted);
    CHECK(o.sandbox.value("seccomp", false));
    CHECK(o.sandbox.value("pid_namespace", false));
    CHECK(o.sandbox.value("mount_namespace", false));
    CHECK(o.sandbox.value("network_namespace", false));
    CHECK(o.sandbox["missing"].empty());
    if (geteuid() == 0) CHECK(o.sandbox.value("uid", 0u) == 65534u);
    // The layers that keep the machine standing: recorded, never a reason to distrust.
    CHECK(o.sandbox.value("oom_score_adj", 0) == 1000);
    if (!o.sandbox.value("memory_cgroup", false)) MESSAGE("no memory cgroup here: " << o.sandbox["degraded"].dump());
    CHECK(o.sandbox["degraded"].empty() == o.sandbox.value("memory_cgroup", false));
  }
}
