#include <doctest/doctest.h>

#include "agent/campaign/extract.h"

namespace {
// C++ and CUDA C++ take the same fence tags (eval/build/language.cc): the cuda row stands for both.
agent::Extraction extract_code(const std::string& response) {
  return agent::extract_code(response, eval::language(eval::LanguageId::cuda_cxx));
}
}  // namespace

TEST_SUITE("agent::extract_code") {
  TEST_CASE("takes the one fenced block with its language tag") {
    auto e = extract_code(
        "Here is a kernel:\n\n```cuda\n__global__ void k() {}\nat::Tensor forward(at::Tensor x) { return x; }\n```\nIt "
        "is fast.");
    REQUIRE(e.code.has_value());
    CHECK(*e.code == "__global__ void k() {}\nat::Tensor forward(at::Tensor x) { return x; }\n");
    CHECK(e.language == "cuda");
    CHECK(e.blocks == 1);
    CHECK_FALSE(e.unterminated);
    CHECK(e.note == "the only code block");
  }

  TEST_CASE("among several blocks, the last one that defines forward wins") {
    auto e = extract_code(
        "First try:\n```cpp\nat::Tensor forward(at::Tensor x) { return x; }\n```\n"
        "Build with:\n```bash\nnvcc -O3 k.cu\n```\n"
        "Better:\n```cpp\nat::Tensor forward(at::Tensor x) { return x.relu(); }\n```\n"
        "Usage:\n```python\nprint(1)\n```\n");
    REQUIRE(e.code.has_value());
    CHECK(*e.code == "at::Tensor forward(at::Tensor x) { return x.relu(); }\n");
    CHECK(e.blocks == 4);
    CHECK(e.note == "the last of 4 code blocks that define forward()");
  }

  TEST_CASE("an unterminated block runs to the end and is marked") {
    auto e = extract_code("```c++\nat::Tensor forward(at::Tensor x) {\n  return x");
    REQUIRE(e.code.has_value());
    CHECK(*e.code == "at::Tensor forward(at::Tensor x) {\n  return x\n");
    CHECK(e.unterminated);
    CHECK(e.note == "the only code block (unterminated: the response ended inside it)");
  }

  TEST_CASE("prose only is no code") {
    auto e = extract_code("I cannot write this kernel, but here is how I would think about it: tile, then fuse.");
    CHECK_FALSE(e.code.has_value());
    CHECK(e.blocks == 0);
    CHECK(e.note == "the response has no fenced code block");
  }

  TEST_CASE("thinking is ignored, even when it holds code") {
    auto e = extract_code(
        "<think>maybe\n```cpp\nat::Tensor forward(at::Tensor x) { return x * 2; }\n```\nno.</think>\n"
        "```cpp\nat::Tensor forward(at::Tensor x) { return x.relu(); }\n```\n");
    REQUIRE(e.code.has_value());
    CHECK(*e.code == "at::Tensor forward(at::Tensor x) { return x.relu(); }\n");
    CHECK(e.blocks == 1);
  }

  TEST_CASE("tildes, longer fences and nested backticks") {
    auto e = extract_code("~~~~cpp\n// ``` inside a comment\nat::Tensor forward(at::Tensor x);\n~~~~\n");
    REQUIRE(e.code.has_value());
    CHECK(*e.code == "// ``` inside a comment\nat::Tensor forward(at::Tensor x);\n");
  }

  TEST_CASE("without forward anywhere, the longest block, said so") {
    auto e = extract_code("```\nshort\n```\n```cpp\nint a_longer_block = 1;\n```\n");
    REQUIRE(e.code.has_value());
    CHECK(*e.code == "int a_longer_block = 1;\n");
    CHECK(e.language == "cpp");
    CHECK(e.note == "no code block defines forward(); took the longest");
  }

  TEST_CASE("an empty block is no code") {
    auto e = extract_code("```cuda\n```\n");
    CHECK_FALSE(e.code.has_value());
    CHECK(e.note == "the code block is empty");
  }
}

TEST_SUITE("agent::extract_code languages") {
  TEST_CASE("a python block that defines forward is reported as python, not compiled") {
    auto e = extract_code("```python\nimport torch\ndef forward(x):\n    return x.relu()\n```\n");
    CHECK_FALSE(e.code.has_value());
    CHECK(e.language == "python");
    CHECK(e.note ==
          "the code block is tagged `python`: refinery compiles one C++ or CUDA source file (```cpp or ```cuda) "
          "that defines forward(), not python code");
  }
  TEST_CASE("a C++ block wins over a later python one that also defines forward") {
    auto e = extract_code(
        "```cuda\nat::Tensor forward(at::Tensor x) { return x; }\n```\n"
        "```python\nmodel.forward(x)\n```\n");
    REQUIRE(e.code.has_value());
    CHECK(e.language == "cuda");
    CHECK(*e.code == "at::Tensor forward(at::Tensor x) { return x; }\n");
  }
  TEST_CASE("tags are case-blind") {
    CHECK(extract_code("```CUDA\nat::Tensor forward(at::Tensor x) { return x; }\n```").code.has_value());
    CHECK(extract_code("```C++\nat::Tensor forward(at::Tensor x) { return x; }\n```").code.has_value());
  }
}
