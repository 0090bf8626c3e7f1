// base::elf_defined_functions: read from real files (this test program, a
// text file, a cut-off copy of an ELF file).
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "base/elf_symbols.h"
#include "base/fs.h"

extern "C" __attribute__((noinline, used)) int refinery_elf_probe_c(int x) {
  return x + 1;
}
namespace elf_probe {
__attribute__((noinline, used)) int mangled(double x) {
  return static_cast<int>(x);
}
}  // namespace elf_probe

namespace {

struct Fd {
  int fd;
  explicit Fd(const std::string& path) : fd(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::binary_search(names.begin(), names.end(), name);
}

}  // namespace

TEST_SUITE("base::elf_defined_functions") {
  TEST_CASE("names the functions a file defines, as the file names them, not the ones it imports") {
    Fd self("/proc/self/exe");
    REQUIRE(self.fd >= 0);
    auto names = base::elf_defined_functions(self.fd);
    REQUIRE_MESSAGE(names.ok(), (names.ok() ? "" : names.error().message));
    CHECK(has(*names, "refinery_elf_probe_c"));
    CHECK(has(*names, "_ZN9elf_probe7mangledEd"));
    CHECK_FALSE(has(*names, "open"));  // libc's, imported
    CHECK(std::is_sorted(names->begin(), names->end()));
    CHECK(std::adjacent_find(names->begin(), names->end()) == names->end());
    CHECK(refinery_elf_probe_c(1) + elf_probe::mangled(1.0) == 3);
  }

  TEST_CASE("a file that is not ELF, or is cut short, is an error saying so") {
    auto made = base::make_temp_dir(std::filesystem::temp_directory_path().string(), "refinery-elf-test");
    REQUIRE(made.ok());
    const std::string dir = *made;
    REQUIRE(base::write_file(dir + "/text", "not a library\n").ok());
    Fd text(dir + "/text");
    auto t = base::elf_defined_functions(text.fd);
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().message == "the ELF file's header lies outside the file");

    REQUIRE(base::write_file(dir + "/text64", std::string(64, 'x')).ok());
    Fd text64(dir + "/text64");
    auto t64 = base::elf_defined_functions(text64.fd);
    REQUIRE_FALSE(t64.ok());
    CHECK(t64.error().message == "not an ELF file");

    auto exe = base::read_file("/proc/self/exe");
    REQUIRE(exe.ok());
    REQUIRE(base::write_file(dir + "/cut", exe->substr(0, 4096)).ok());
    Fd cut(dir + "/cut");
    auto c = base::elf_defined_functions(cut.fd);
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().message.find("lies outside the file") != std::string::npos);
    std::filesystem::remove_all(dir);
  }
}
