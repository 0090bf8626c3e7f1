#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "base/text.h"

using Strings = std::vector<std::string>;

TEST_SUITE("base::text") {
  TEST_CASE("edit distance counts insertions, deletions, substitutions and swaps") {
    CHECK(base::edit_distance("", "") == 0);
    CHECK(base::edit_distance("same", "same") == 0);
    CHECK(base::edit_distance("", "abc") == 3);
    CHECK(base::edit_distance("abc", "") == 3);
    CHECK(base::edit_distance("kitten", "sitting") == 3);
    CHECK(base::edit_distance("sitting", "kitten") == 3);
    CHECK(base::edit_distance("flaw", "lawn") == 2);
    CHECK(base::edit_distance("temprature", "temperature") == 1);
    CHECK(base::edit_distance("abc", "acb") == 1);  // a swap of neighbours is one edit
    CHECK(base::edit_distance("rleu", "relu") == 1);
    CHECK(base::edit_distance("ba", "abc") == 2);
  }

  TEST_CASE("suggests the closest key") {
    Strings keys = {"temperature", "max_tokens", "model", "top_p"};
    CHECK(base::closest_match("temprature", keys) == std::optional<std::string>("temperature"));
    CHECK(base::closest_match("max_token", keys) == std::optional<std::string>("max_tokens"));
    CHECK(base::closest_match("modl", keys) == std::optional<std::string>("model"));
    CHECK(base::closest_match("modle", keys) == std::optional<std::string>("model"));  // one swap
  }

  TEST_CASE("prefers the nearer of two candidates") {
    CHECK(base::closest_match("sizes", {"size", "sizes"}) == std::optional<std::string>("sizes"));
    CHECK(base::closest_match("siz", {"sizes", "size"}) == std::optional<std::string>("size"));
  }

  TEST_CASE("suggests nothing for an unrelated word") {
    Strings keys = {"temperature", "max_tokens", "model", "top_p"};
    CHECK_FALSE(base::closest_match("banana", keys).has_value());
    CHECK_FALSE(base::closest_match("x", {"yz"}).has_value());
    CHECK_FALSE(base::closest_match("model", {}).has_value());
  }

  TEST_CASE("a typo must be within a third of the word's length") {
    // 9 letters allow 3 edits; "abcdefghi" -> "abcdefxyz" is 3 edits, "abcdewxyz" is 4.
    CHECK(base::closest_match("abcdefghi", {"abcdefxyz"}) == std::optional<std::string>("abcdefxyz"));
    CHECK_FALSE(base::closest_match("abcdefghi", {"abcdewxyz"}).has_value());
    // Short words still allow one edit.
    CHECK(base::closest_match("ab", {"ac"}) == std::optional<std::string>("ac"));
    CHECK_FALSE(base::closest_match("ab", {"cd"}).has_value());
  }

  TEST_CASE("trim removes surrounding whitespace only") {
    CHECK(base::trim("  hello world \t\r\n") == "hello world");
    CHECK(base::trim("hello") == "hello");
    CHECK(base::trim("") == "");
    CHECK(base::trim(" \t\n ") == "");
    CHECK(base::trim("\na b\n") == "a b");
  }

  TEST_CASE("split keeps empty fields") {
    CHECK(base::split("a,b,c", ',') == Strings{"a", "b", "c"});
    CHECK(base::split("a,,c", ',') == Strings{"a", "", "c"});
    CHECK(base::split(",a,", ',') == Strings{"", "a", ""});
    CHECK(base::split("abc", ',') == Strings{"abc"});
    CHECK(base::split("", ',') == Strings{""});
  }

  TEST_CASE("join puts the separator between parts only") {
    CHECK(base::join({"a", "b", "c"}, ", ") == "a, b, c");
    CHECK(base::join({"only"}, ", ") == "only");
    CHECK(base::join({}, ", ") == "");
    CHECK(base::join({"", ""}, "-") == "-");
  }

  TEST_CASE("split and join are inverses") {
    std::string text = "x::y:z:";
    CHECK(base::join(base::split(text, ':'), ":") == text);
  }

  TEST_CASE("starts_with and ends_with") {
    CHECK(base::starts_with("refinery", "ref"));
    CHECK(base::starts_with("refinery", ""));
    CHECK_FALSE(base::starts_with("re", "ref"));
    CHECK(base::ends_with("job.json", ".json"));
    CHECK_FALSE(base::ends_with("json", ".json"));
    CHECK(base::ends_with("x", ""));
  }

  TEST_CASE("head_and_tail leaves short text unchanged") {
    CHECK(base::head_and_tail("short", 100) == "short");
    CHECK(base::head_and_tail("exactly10!", 10) == "exactly10!");
    CHECK(base::head_and_tail("", 0) == "");
  }

  TEST_CASE("head_and_tail keeps the head and tail with a marker between") {
    CHECK(base::head_and_tail("0123456789ABCDEFGHIJ", 10) == "01234\n[... 10 bytes omitted ...]\nFGHIJ");
    // An odd budget gives the extra byte to the tail.
    CHECK(base::head_and_tail("0123456789ABCDEFGHIJ", 5) == "01\n[... 15 bytes omitted ...]\nHIJ");
  }

  TEST_CASE("last_lines keeps the final lines without the trailing newline") {
    CHECK(base::last_lines("a\nb\nc\n", 2) == "b\nc");
    CHECK(base::last_lines("a\nb\nc", 2) == "b\nc");
    CHECK(base::last_lines("a\nb\nc\n\n\n", 1) == "c");
    CHECK(base::last_lines("a\nb", 5) == "a\nb");
    CHECK(base::last_lines("only", 1) == "only");
    CHECK(base::last_lines("a\nb", 0) == "");
    CHECK(base::last_lines("", 3) == "");
  }

  TEST_CASE("format_ms picks microseconds, milliseconds or seconds") {
    CHECK(base::format_ms(0.456) == "456.0 us");
    CHECK(base::format_ms(0) == "0.0 us");
    CHECK(base::format_ms(1) == "1.000 ms");
    CHECK(base::format_ms(1.23456) == "1.235 ms");
    CHECK(base::format_ms(999.5) == "999.500 ms");
    CHECK(base::format_ms(1000) == "1.00 s");
    CHECK(base::format_ms(2500) == "2.50 s");
  }

  TEST_CASE("format_bytes uses binary units") {
    CHECK(base::format_bytes(0) == "0 B");
    CHECK(base::format_bytes(512) == "512 B");
    CHECK(base::format_bytes(1023) == "1023 B");
    CHECK(base::format_bytes(1024) == "1.0 KiB");
    CHECK(base::format_bytes(1536) == "1.5 KiB");
    CHECK(base::format_bytes(12.0 * 1024 * 1024) == "12.0 MiB");
    CHECK(base::format_bytes(1.5 * 1024 * 1024 * 1024) == "1.5 GiB");
    CHECK(base::format_bytes(2048.0 * 1024 * 1024 * 1024 * 1024) == "2048.0 TiB");
  }

  TEST_CASE("parse_bytes reads sizes as ccache does: K M G T decimal, Ki Mi Gi Ti binary") {
    CHECK(base::parse_bytes("0") == uint64_t{0});
    CHECK(base::parse_bytes("512") == uint64_t{512});
    CHECK(base::parse_bytes("512B") == uint64_t{512});
    CHECK(base::parse_bytes("5GiB") == uint64_t{5} << 30);
    CHECK(base::parse_bytes("5 Gi") == uint64_t{5} << 30);
    CHECK(base::parse_bytes("5gib") == uint64_t{5} << 30);
    CHECK(base::parse_bytes("5G") == uint64_t{5000000000});
    CHECK(base::parse_bytes("500 MB") == uint64_t{500000000});
    CHECK(base::parse_bytes("1.5KiB") == uint64_t{1536});
    CHECK(base::parse_bytes("2 kB") == uint64_t{2000});
    CHECK(base::parse_bytes(" 1TiB ") == uint64_t{1} << 40);
    for (const char* bad : {"", "GiB", "-1G", "5 GB extra", "5XB", "1.2.3G", "inf", "nan", "5GIB", "1e3", "99999999T"})
      CHECK_MESSAGE(!base::parse_bytes(bad), bad);
  }
}
