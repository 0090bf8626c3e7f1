// The device pool's logic with fake runs and probes: one job at a time on each
// device, all devices busy at once, a suspect outcome probed, a failed probe
// retiring the device and the job run again elsewhere, and an end once none is left.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "eval/device_pool.h"

using eval::DevicePool;
using eval::Outcome;
using eval::Status;

namespace {

Outcome with(Status status, const std::string& message = "") {
  Outcome o;
  o.status = status;
  o.message = message;
  return o;
}

}  // namespace

TEST_SUITE("eval::DevicePool") {
  TEST_CASE("four devices run four jobs at once, never two on one device") {
    DevicePool pool({0, 1, 2, 3});
    std::mutex m;
    std::map<int, int> on_device, most_on_device;
    int running = 0, most_running = 0;
    std::vector<std::thread> threads;
    std::map<int, int> jobs_per_device;
    for (int t = 0; t < 16; ++t)
      threads.emplace_back([&] {
        auto r = eval::run_on_pool(
            pool, "job",
            [&](int device) -> base::Result<Outcome> {
              {
                std::lock_guard<std::mutex> lock(m);
                most_on_device[device] = std::max(most_on_device[device], ++on_device[device]);
                most_running = std::max(most_running, ++running);
                ++jobs_per_device[device];
              }
              std::this_thread::sleep_for(std::chrono::milliseconds(20));
              std::lock_guard<std::mutex> lock(m);
              --on_device[device];
              --running;
              return with(Status::correct);
            },
            [](int) -> base::Status {
              FAIL("a correct outcome is never probed");
              return {};
            });
        REQUIRE(r.ok());
      });
    for (auto& t : threads) t.join();
    CHECK(most_running == 4);
    for (const auto& [device, most] : most_on_device) CHECK_MESSAGE(most == 1, "device " << device);
    CHECK(jobs_per_device.size() == 4);
    CHECK(pool.retired().empty());
  }

  TEST_CASE("which outcomes are suspect: hangs, crashes and CUDA's sticky errors, not a wrong answer") {
    CHECK(eval::device_suspect(with(Status::timeout)));
    CHECK(eval::device_suspect(with(Status::crashed)));
    CHECK(eval::device_suspect(with(Status::runtime_error, "CUDA error: an illegal memory access was encountered")));
    CHECK(eval::device_suspect(with(Status::runtime_error, "CUDA error: unspecified launch failure")));
    CHECK_FALSE(eval::device_suspect(with(Status::runtime_error, "std::out_of_range: vector::at")));
    CHECK_FALSE(eval::device_suspect(with(Status::mismatch)));
    CHECK_FALSE(eval::device_suspect(with(Status::correct)));
    CHECK_FALSE(eval::device_suspect(with(Status::rejected)));
  }

  TEST_CASE("a crash whose probe passes stands, and the device stays in the rotation") {
    DevicePool pool({0, 1});
    int probes = 0;
    auto r = eval::run_on_pool(
        pool, "level1/19", [](int) -> base::Result<Outcome> { return with(Status::crashed, "SIGSEGV"); },
        [&](int) -> base::Status {
          ++probes;
          return {};
        });
    REQUIRE(r.ok());
    CHECK(r->outcome.status == Status::crashed);
    CHECK(r->retired.empty());
    CHECK(probes == 1);
    CHECK(pool.retired().empty());
  }

  TEST_CASE("a failed probe retires the device; the job runs again on another, and no job goes there again") {
    DevicePool pool({0, 1, 2});
    std::vector<int> ran_on;
    // Device 1 is broken: whatever runs there hangs, and its probe fails.
    auto run = [&](int device) -> base::Result<Outcome> {
      ran_on.push_back(device);
      return device == 1 ? with(Status::timeout, "did not finish") : with(Status::correct);
    };
    auto probe = [](int device) -> base::Status {
      if (device == 1) return base::Error{"probe of device 1: the reference against itself ended timeout"};
      return {};
    };
    // Hold device 0 so that the first job gets device 1.
    REQUIRE(pool.acquire().value() == 0);
    auto r = eval::run_on_pool(pool, "level1/19", run, probe);
    REQUIRE(r.ok());
    CHECK(ran_on == std::vector<int>{1, 2});
    CHECK(r->outcome.status == Status::correct);
    CHECK(r->device == 2);
    REQUIRE(r->retired.size() == 1);
    CHECK(r->retired[0].device == 1);
    CHECK(r->retired[0].during == "level1/19");
    CHECK(r->retired[0].reason.find("probe of device 1") == 0);
    pool.release(0);
    for (int i = 0; i < 6; ++i) REQUIRE(eval::run_on_pool(pool, "next", run, probe).ok());
    CHECK(std::count(ran_on.begin(), ran_on.end(), 1) == 1);
    REQUIRE(pool.retired().size() == 1);
  }

  TEST_CASE("a candidate that breaks every device retires two at most, then its verdict stands") {
    DevicePool pool({0, 1, 2, 3});
    int runs = 0;
    auto r = eval::run_on_pool(
        pool, "level1/1",
        [&](int) -> base::Result<Outcome> {
          ++runs;
          return with(Status::crashed, "SIGBUS");
        },
        [](int) -> base::Status { return base::Error{"probe failed"}; });
    REQUIRE(r.ok());
    CHECK(runs == 2);
    CHECK(r->outcome.status == Status::crashed);
    CHECK(r->retired.size() == 2);
    CHECK(pool.retired().size() == 2);
  }

  TEST_CASE("with every device retired, a job is an error naming each one and why, and a waiter is woken") {
    DevicePool pool({0, 1});
    REQUIRE(pool.acquire().value() == 0);
    REQUIRE(pool.acquire().value() == 1);
    std::atomic<bool> woken{false};
    std::string said;
    std::thread waiter([&] {
      auto d = pool.acquire();  // both busy: waits
      REQUIRE_FALSE(d.ok());
      said = d.error().message;
      woken = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK_FALSE(woken.load());
    pool.retire(0, "probe failed: hang", "level1/3");
    pool.retire(1, "probe failed: Xid 79", "level2/7");
    pool.release(0);
    pool.release(1);
    waiter.join();
    CHECK(woken.load());
    CHECK(said.find("every device is retired") == 0);
    CHECK(said.find("device 0 (after level1/3: probe failed: hang)") != std::string::npos);
    CHECK(said.find("device 1 (after level2/7: probe failed: Xid 79)") != std::string::npos);
  }

  TEST_CASE("an evaluation that cannot be attempted is an error, and frees its device") {
    DevicePool pool({5});
    auto r = eval::run_on_pool(
        pool, "x", [](int) -> base::Result<Outcome> { return base::Error{"the worker cannot start"}; },
        [](int) -> base::Status { return {}; });
    CHECK_FALSE(r.ok());
    CHECK(pool.acquire().value() == 5);
  }
}
