#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "base/fs.h"
#include "base/sha256.h"

// Expected digests are the published FIPS 180-2 vectors, and for the padding
// boundaries the output of `head -c N /dev/zero | tr '\0' a | sha256sum`.
TEST_SUITE("base::sha256_hex") {
  TEST_CASE("hashes the empty string") {
    CHECK(base::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  }

  TEST_CASE("hashes the one-block vector 'abc'") {
    CHECK(base::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }

  TEST_CASE("hashes the 56-byte two-block vector") {
    CHECK(base::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  }

  TEST_CASE("hashes a million 'a's") {
    CHECK(base::sha256_hex(std::string(1000000, 'a')) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  }

  TEST_CASE("pads correctly around the block boundaries") {
    struct Case {
      size_t length;
      const char* digest;
    };
    const Case cases[] = {
        {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},  // one padded block
        {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},  // spills into two
        {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
        {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},  // exactly one block
        {65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"},
        {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
        {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
        {128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"},
    };
    for (const auto& c : cases) {
      INFO("length ", c.length);
      CHECK(base::sha256_hex(std::string(c.length, 'a')) == c.digest);
    }
  }

  TEST_CASE("treats bytes as unsigned, including NUL and high bytes") {
    CHECK(base::sha256_hex(std::string("\x00\xff\x80", 3)) ==
          "f742b965f156c10374bc23aea96e3a8aff8facd6fc079defeaa30219ad86f211");
  }

  TEST_CASE("gives 64 lowercase hex digits") {
    std::string digest = base::sha256_hex("The quick brown fox jumps over the lazy dog");
    CHECK(digest == "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
    CHECK(digest.find_first_not_of("0123456789abcdef") == std::string::npos);
  }

  TEST_CASE("hashes a file's bytes, and names a file it cannot read") {
    const std::string dir = *base::make_temp_dir(std::filesystem::temp_directory_path().string(), "refinery-sha");
    REQUIRE(base::write_file(dir + "/abc", "abc").ok());
    CHECK(*base::sha256_file_hex(dir + "/abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    auto missing = base::sha256_file_hex(dir + "/none");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == dir + "/none: cannot open: No such file or directory");
    std::filesystem::remove_all(dir);
  }
}
