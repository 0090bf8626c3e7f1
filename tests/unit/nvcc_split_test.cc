#include <doctest/doctest.h>

#include "base/fs.h"
#include "eval/build/nvcc_split.h"

namespace {
std::string dryrun() {
  auto text = base::read_file(std::string(REFINERY_TEST_FIXTURES) + "/nvcc_dryrun_13.0.txt");
  REQUIRE(text.ok());
  return *text;
}
std::string program(const std::string& command) {
  return command.substr(0, command.find(' '));
}
}  // namespace

TEST_SUITE("eval::nvcc_split") {
  TEST_CASE("splits CUDA 13.0's plan into host front end, device branch and the rest") {
    auto plan = eval::parse_nvcc_plan(dryrun(), "salt");
    REQUIRE_MESSAGE(plan.ok(), (plan.ok() ? "" : plan.error().message));
    CHECK(plan->env.size() == 18);
    CHECK(plan->env.front() == "_NVVM_BRANCH_=nvvm");
    REQUIRE(plan->host.size() == 2);
    CHECK(program(plan->host[0]) == "gcc");
    CHECK(program(plan->host[1]) == "cudafe++");
    REQUIRE(plan->device.size() == 4);
    CHECK(program(plan->device[0]) == "gcc");
    CHECK(program(plan->device[1]) == "\"$CICC_PATH/cicc\"");
    CHECK(program(plan->device[2]) == "ptxas");
    CHECK(program(plan->device[3]) == "fatbinary");
    REQUIRE(plan->rest.size() == 7);
    CHECK(program(plan->rest.back()) == "g++");
  }

  TEST_CASE("cudafe++ reads a module id written beforehand instead of generating it") {
    auto plan = eval::parse_nvcc_plan(dryrun(), "salt");
    REQUIRE(plan.ok());
    CHECK(plan->host[1].find("--gen_module_id_file") == std::string::npos);
    CHECK(plan->module_id_path == "/tmp/refinery-compile/tmpxft_0000321a_00000000-4_k4.module_id");
    CHECK(plan->host[1].find("--module_id_file_name \"" + plan->module_id_path + "\"") != std::string::npos);
    CHECK(plan->device[1].find("--module_id_file_name \"" + plan->module_id_path + "\"") != std::string::npos);
    // _<8 hex>_<length of "k4.cu">_k4_cu_<8 hex>, like cudafe++'s own.
    REQUIRE(plan->module_id.size() == 1 + 8 + 3 + 6 + 8);
    CHECK(plan->module_id.substr(9, 9) == "_5_k4_cu_");
    CHECK(eval::parse_nvcc_plan(dryrun(), "other salt")->module_id != plan->module_id);
  }

  TEST_CASE("a plan of another shape is refused, so the caller runs nvcc whole") {
    CHECK_FALSE(eval::parse_nvcc_plan("#$ gcc -c x.cpp\n#$ g++ x.o\n", "").ok());
    CHECK_FALSE(eval::parse_nvcc_plan("", "").ok());
  }
}
