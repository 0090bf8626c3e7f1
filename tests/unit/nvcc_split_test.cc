#include <doctest/doctest.h>

#include "base/fs.h"
#include "eval/nvcc_split.h"

namespace {
std::string dryrun() {
  auto text = base::read_file(std::string(REFINERY_TEST_FIXTURES) + "/nvcc_dryrun_13.0.txt");
  REQUIRE(text.ok());
  return *text;
}
std::string program(const std::string& command) { return command.substr(0, command.find(' ')); }
std::string fatbin_c() {
  auto text = base::read_file(std::string(REFINERY_TEST_FIXTURES) + "/nvcc_fatbin_13.0.c");
  REQUIRE(text.ok());
  return *text;
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
    // The host compile goes beside the device branch; the rest is the link.
    REQUIRE(plan->rest.size() == 6);
    CHECK(program(plan->rest.back()) == "g++");
    for (const auto& c : plan->rest) CHECK(c.find(".cudafe1.cpp") == std::string::npos);
    CHECK(program(plan->host_compile) == "gcc");
    CHECK(plan->host_compile.find(" -c ") != std::string::npos);
    CHECK(plan->host_object == "/tmp/refinery-compile/tmpxft_0000321a_00000000-11_k4.o");
    CHECK(plan->fatbin_c == "/tmp/refinery-compile/tmpxft_0000321a_00000000-3_k4.fatbin.c");
    // The device branch writes the real fatbinary beside the stand-in the host compile reads.
    CHECK(plan->device[3].find("--embedded-fatbin=\"" + plan->fatbin_c + ".device.c\"") != std::string::npos);
  }

  TEST_CASE("the host compile's stand-in for the fatbinary is CUDA 13.0's file less its data") {
    const std::string real = fatbin_c();
    CHECK(eval::fatbin_matches_stand_in(real, eval::fatbin_stand_in()));
    CHECK(eval::fatbin_stand_in().find("fatbinData[];") != std::string::npos);
    CHECK(eval::fatbin_stand_in().find(".quad") == std::string::npos);
    // Anything else around the data is another file: the host compile runs again on the real one.
    std::string other = real;
    other.replace(other.find("0x466243b1, 1,"), 14, "0x466243b1, 2,");
    CHECK_FALSE(eval::fatbin_matches_stand_in(other, eval::fatbin_stand_in()));
    CHECK_FALSE(eval::fatbin_matches_stand_in("", eval::fatbin_stand_in()));
    CHECK_FALSE(eval::fatbin_matches_stand_in(eval::fatbin_stand_in(), eval::fatbin_stand_in()));  // no data
  }

  TEST_CASE("the fatbinary's data becomes a file of its own with a hidden global fatbinData") {
    auto data = eval::fatbin_data_source(fatbin_c());
    REQUIRE(data.ok());
    CHECK(data->rfind("asm(\".globl fatbinData\\n.hidden fatbinData\\n\");\n", 0) == 0);
    CHECK(data->find("\"fatbinData:\\n\"") != std::string::npos);
    CHECK(data->find("0x0000000000100011") != std::string::npos);
    CHECK(data->find("__fatDeviceText") == std::string::npos);  // the wrapper stays in the host object
    CHECK(data->substr(data->size() - 12) == "\".text\\n\");\n");
    CHECK_FALSE(eval::fatbin_data_source(eval::fatbin_stand_in()).ok());
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
