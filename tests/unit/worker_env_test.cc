#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "eval/worker_launcher.h"

namespace {

using Env = std::vector<std::string>;

const Env kParent = {
    "PATH=/usr/local/bin:/usr/bin:/bin",
    "CUDA_VISIBLE_DEVICES=1,3",
    "LD_LIBRARY_PATH=/opt/libtorch/lib",
    "LANG=C.UTF-8",
    "OPENAI_API_KEY=sk-openai",
    "ANTHROPIC_API_KEY=sk-ant",
    "AWS_SECRET_ACCESS_KEY=aws-secret",
    "GITHUB_TOKEN=ghp-token",
    "HOME=/home/someone",
    "TMPDIR=/var/tmp",
    "EDITOR=vim",
    "OMP_NUM_THREADS=64",
};

bool has(const Env& env, const std::string& entry) {
  return std::find(env.begin(), env.end(), entry) != env.end();
}

// Every entry whose key is `key`.
Env entries_for(const Env& env, const std::string& key) {
  Env out;
  for (const auto& kv : env)
    if (kv.rfind(key + "=", 0) == 0) out.push_back(kv);
  return out;
}

}  // namespace

TEST_SUITE("eval::worker_environment") {
  TEST_CASE("keeps allowlisted variables unchanged") {
    Env env = eval::worker_environment(kParent, "/scratch/job-1", 0);
    CHECK(has(env, "PATH=/usr/local/bin:/usr/bin:/bin"));
    CHECK(has(env, "CUDA_VISIBLE_DEVICES=1,3"));
    CHECK(has(env, "LD_LIBRARY_PATH=/opt/libtorch/lib"));
    CHECK(has(env, "LANG=C.UTF-8"));
  }

  TEST_CASE("drops secrets") {
    Env env = eval::worker_environment(kParent, "/scratch/job-1", 0);
    CHECK(entries_for(env, "OPENAI_API_KEY").empty());
    CHECK(entries_for(env, "ANTHROPIC_API_KEY").empty());
    CHECK(entries_for(env, "AWS_SECRET_ACCESS_KEY").empty());
    CHECK(entries_for(env, "GITHUB_TOKEN").empty());
    for (const auto& kv : env) {
      CHECK(kv.find("sk-") == std::string::npos);
      CHECK(kv.find("secret") == std::string::npos);
    }
  }

  TEST_CASE("drops anything not allowlisted") {
    Env env = eval::worker_environment(kParent, "/scratch/job-1", 0);
    CHECK(entries_for(env, "EDITOR").empty());
    CHECK(entries_for(env, "OMP_NUM_THREADS").empty());  // the parent's, when threads is 0
  }

  TEST_CASE("points HOME and TMPDIR at the job folder, replacing the parent's") {
    Env env = eval::worker_environment(kParent, "/scratch/job-1", 0);
    CHECK(entries_for(env, "HOME") == Env{"HOME=/scratch/job-1"});
    CHECK(entries_for(env, "TMPDIR") == Env{"TMPDIR=/scratch/job-1"});
  }

  TEST_CASE("sets OMP_NUM_THREADS when threads are given") {
    Env env = eval::worker_environment(kParent, "/scratch/job-1", 4);
    CHECK(entries_for(env, "OMP_NUM_THREADS") == Env{"OMP_NUM_THREADS=4"});
  }

  TEST_CASE("the whole environment is the allowlisted part plus the job's") {
    Env env = eval::worker_environment(kParent, "/j", 2);
    std::sort(env.begin(), env.end());
    Env expected = {
        "CUDA_VISIBLE_DEVICES=1,3",
        "HOME=/j",
        "LANG=C.UTF-8",
        "LD_LIBRARY_PATH=/opt/libtorch/lib",
        "OMP_NUM_THREADS=2",
        "PATH=/usr/local/bin:/usr/bin:/bin",
        "TMPDIR=/j",
    };
    CHECK(env == expected);
  }

  TEST_CASE("an empty parent gives only the job's variables") {
    CHECK(eval::worker_environment({}, "/j", 0) == Env{"HOME=/j", "TMPDIR=/j"});
  }

  TEST_CASE("ignores entries without '='") {
    CHECK(eval::worker_environment({"PATH"}, "/j", 0) == Env{"HOME=/j", "TMPDIR=/j"});
  }

  TEST_CASE("matches keys exactly, not by prefix") {
    Env env = eval::worker_environment({"PATHS=/x", "XPATH=/y", "path=/z"}, "/j", 0);
    CHECK(env == Env{"HOME=/j", "TMPDIR=/j"});
  }
}
