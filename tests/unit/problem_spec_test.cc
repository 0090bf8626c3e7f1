#include <doctest/doctest.h>

#include "test_support.h"

#include <filesystem>
#include <fstream>

#include "base/fs.h"
#include "eval/build/shim.h"
#include "eval/evaluate.h"
#include "eval/problems/problem.h"
#include "eval/problems/problem_index.h"

namespace fs = std::filesystem;

namespace {

// A problem folder in a fresh temporary directory, holding `spec` and a reference.
std::string write_problem(const std::string& spec) {
  auto dir = base::make_temp_dir(fs::temp_directory_path().string(), "refinery-spec");
  REQUIRE(dir.ok());
  std::ofstream(*dir + "/spec.yaml") << spec;
  std::ofstream(*dir + "/reference.cpp") << "#include <torch/torch.h>\n";
  return *dir;
}

std::string load_error(const std::string& spec) {
  std::string dir = write_problem(spec);
  auto p = eval::load_problem(dir);
  REQUIRE_FALSE(p.ok());
  std::string message = p.error().message;
  // Strip the temporary folder so that messages can be compared exactly.
  auto pos = message.find(dir);
  if (pos != std::string::npos) message.replace(pos, dir.size(), "DIR");
  fs::remove_all(dir);
  return message;
}

const char* kGood = R"(name: relu_like
level: 1
number: 19
inputs:
  - name: x
    dtype: float32
    shape: [B, D]
    draw: {normal: {mean: 0, std: 1}}
  - name: w
    role: weight
    dtype: float32
    shape: [D]
    draw: {default_init: {fan_in: D}}
  - name: t
    dtype: int64
    shape: [B]
    draw: {randint: {high: D - 1}}
  - name: s
    kind: scalar
    dtype: float64
    value: 2.5
sizes:
  full: {B: 64, D: 100}
  small: {B: 2, D: 4}
flops: B*D
)";

}  // namespace

TEST_SUITE("eval::Problem") {
  TEST_CASE("loads a valid spec and resolves it per size") {
    std::string dir = write_problem(kGood);
    auto p = eval::load_problem(dir);
    REQUIRE(p.ok());
    CHECK(p->id == "level1/19");
    CHECK(p->inputs.size() == 4);
    CHECK(p->inputs[1].is_weight);
    CHECK(eval::forward_parameters(*p) == "torch::Tensor x, torch::Tensor w, torch::Tensor t, double s");
    auto small = eval::resolve_inputs(*p, "small");
    REQUIRE(small.ok());
    CHECK((*small)[0].shape == std::vector<int64_t>{2, 4});
    CHECK((*small)[1].draw.kind == eval::DrawSpec::Kind::uniform);
    CHECK((*small)[1].draw.a == doctest::Approx(-0.5));
    CHECK((*small)[1].draw.b == doctest::Approx(0.5));
    CHECK((*small)[2].draw.b == 3);
    CHECK((*small)[3].scalar_value == 2.5);
    auto missing = eval::resolve_inputs(*p, "huge");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == "level1/19: no size preset 'huge' (has: full, small)");
    fs::remove_all(dir);
  }

  TEST_CASE("unfit_precisions: the precisions that make no sense, each with why; fp32 runs in their place") {
    std::string spec = std::string(kGood) + "unfit_precisions:\n  fp16: \"sums overflow fp16's range\"\n";
    std::string dir = write_problem(spec);
    auto p = eval::load_problem(dir);
    REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
    REQUIRE(p->unfit_precisions.size() == 1);
    std::string why;
    CHECK(eval::precision_for(*p, eval::DType::float16, &why) == eval::DType::float32);
    CHECK(why == "level1/19 runs at fp32: its spec calls fp16 unfit (sums overflow fp16's range)");
    CHECK(eval::precision_for(*p, eval::DType::bfloat16) == eval::DType::bfloat16);
    fs::remove_all(dir);
    CHECK(load_error(std::string(kGood) + "unfit_precisions:\n  fp32: no\n").find("fp16, bf16") != std::string::npos);
    CHECK(load_error(std::string(kGood) + "unfit_precisions:\n  bf16: \"\"\n").find("says why") != std::string::npos);
  }

  TEST_CASE("an unknown key names file, line, column and the closest key") {
    std::string spec = kGood;
    spec.replace(spec.find("    dtype: float32\n    shape: [B, D]"), 18, "    dtyp: float32");
    CHECK(load_error(spec) ==
          "DIR/spec.yaml:6:5: unknown key 'dtyp' in input 'x' (did you mean 'dtype'?)\n"
          "        dtyp: float32\n"
          "        ^");
  }

  TEST_CASE("a tag outside the list is an error at the tag") {
    std::string spec = "tags: [conv, convolution]\n" + std::string(kGood);
    const std::string e = load_error(spec);
    CHECK(e.find("DIR/spec.yaml:1:14: unknown tag 'convolution' (tags: matmul, conv, norm,") == 0);
  }

  TEST_CASE("a misspelt draw kind is suggested") {
    std::string spec = kGood;
    spec.replace(spec.find("{normal:"), 8, "{normale:");
    CHECK(load_error(spec) ==
          "DIR/spec.yaml:8:12: invalid value 'normale' for 'draw' (did you mean 'normal'?)\n"
          "        draw: {normale: {mean: 0, std: 1}}\n"
          "               ^");
  }

  TEST_CASE("a dim that a size does not define is an error at the shape") {
    std::string spec = kGood;
    spec.replace(spec.find("shape: [D]"), 10, "shape: [E]");
    CHECK(load_error(spec) ==
          "DIR/spec.yaml:12:13: size 'full': in expression 'E' at column 1: unknown dim 'E'\n"
          "        shape: [E]\n"
          "                ^");
  }

  TEST_CASE("a missing size preset is an error") {
    std::string spec = kGood;
    spec.replace(spec.find("  small: {B: 2, D: 4}\n"), 22, "");
    CHECK(load_error(spec) ==
          "DIR/spec.yaml:23:3: missing required size preset 'small'\n"
          "      full: {B: 64, D: 100}\n"
          "      ^");
  }

  TEST_CASE("a wrong type is an error with what was expected") {
    std::string spec = kGood;
    spec.replace(spec.find("value: 2.5"), 10, "value: lots");
    CHECK(load_error(spec) ==
          "DIR/spec.yaml:21:12: expected a number for 'value', got 'lots'\n"
          "        value: lots\n"
          "               ^");
  }

  TEST_CASE("an integer tensor drawn from a continuous distribution is refused") {
    std::string spec = kGood;
    spec.replace(spec.find("{randint: {high: D - 1}}"), 24, "{normal: {}}");
    CHECK(load_error(spec) ==
          "DIR/spec.yaml:17:11: input 't' has dtype int64; draw it with randint, bernoulli or constant\n"
          "        draw: {normal: {}}\n"
          "              ^");
  }

  TEST_CASE("a draw without its required parameter is refused") {
    std::string spec = kGood;
    spec.replace(spec.find("{randint: {high: D - 1}}"), 24, "{randint: {low: 1}}");
    CHECK(load_error(spec) ==
          "DIR/spec.yaml:17:11: missing required parameter 'high' in randint draw of input 't'\n"
          "        draw: {randint: {low: 1}}\n"
          "              ^");
  }

  TEST_CASE("a transform after the draw is kept, resolved and checked") {
    // kGood with `then: VALUE` under a draw line: by default the first input's (line 9).
    auto with_then = [](const std::string& value, const std::string& draw = "    draw: {normal: {mean: 0, std: 1}}\n") {
      std::string spec = kGood;
      spec.replace(spec.find(draw), draw.size(), draw + "    then: " + value + "\n");
      return spec;
    };
    std::string dir = write_problem(with_then("softmax"));
    auto p = eval::load_problem(dir);
    REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
    CHECK(p->inputs[0].then == "softmax");
    auto resolved = eval::resolve_inputs(*p, "small");
    REQUIRE(resolved.ok());
    CHECK((*resolved)[0].then == "softmax");
    CHECK((*resolved)[1].then.empty());
    fs::remove_all(dir);

    CHECK(load_error(with_then("symetric")) ==
          "DIR/spec.yaml:9:11: invalid value 'symetric' for 'then' (did you mean 'symmetric'?)\n"
          "        then: symetric\n"
          "              ^");
    CHECK(load_error(with_then("symmetric")) ==
          "DIR/spec.yaml:9:11: 'then: symmetric' needs its last two dims to be the same dim name\n"
          "        then: symmetric\n"
          "              ^");

    // The int64 input 't' cannot take a transform; the 1-D weight 'w' has too few dims for triu.
    CHECK(load_error(with_then("sign", "    draw: {randint: {high: D - 1}}\n")) ==
          "DIR/spec.yaml:18:11: 'then: sign' needs a floating dtype\n"
          "        then: sign\n"
          "              ^");

    CHECK(load_error(with_then("triu", "    draw: {default_init: {fan_in: D}}\n")) ==
          "DIR/spec.yaml:14:11: 'then: triu' needs a tensor of at least 2 dims\n"
          "        then: triu\n"
          "              ^");
  }

  TEST_CASE("a YAML syntax error keeps its position") {
    CHECK(load_error("name: [unclosed\n") ==
          "DIR/spec.yaml:2:1: end of sequence flow not found\n"
          "    \n"
          "    ^");
  }

  TEST_CASE("a folder without a reference is refused") {
    std::string dir = write_problem(kGood);
    fs::remove(dir + "/reference.cpp");
    auto p = eval::load_problem(dir);
    REQUIRE_FALSE(p.ok());
    CHECK(p.error().message == dir + ": no reference.cpp in problem folder");
    fs::remove_all(dir);
  }
}

TEST_SUITE("eval::tolerance") {
  TEST_CASE("defaults follow the dtype") {
    CHECK(eval::default_tolerance(eval::DType::float32).atol == 1e-4);
    CHECK(eval::default_tolerance(eval::DType::float16).rtol == 1e-2);
    CHECK(eval::default_tolerance(eval::DType::bfloat16).atol == 1e-2);
    CHECK(eval::default_tolerance(eval::DType::int64).atol == 0);
  }

  TEST_CASE("settings override the problem, which overrides the dtype default") {
    std::string dir = write_problem(std::string(kGood) + "tolerance: {atol: 0.001}\n");
    auto p = eval::load_problem(dir);
    REQUIRE(p.ok());
    eval::EvalSettings settings;
    CHECK(eval::effective_tolerance(*p, settings).atol == 1e-3);
    CHECK(eval::effective_tolerance(*p, settings).rtol == 1e-4);
    settings.atol = 0.5;
    settings.rtol = 0.25;
    CHECK(eval::effective_tolerance(*p, settings).atol == 0.5);
    CHECK(eval::effective_tolerance(*p, settings).rtol == 0.25);
    p->tolerance.reset();
    settings.atol.reset();
    settings.rtol.reset();
    p->inputs[0].dtype = eval::DType::float16;
    CHECK(eval::effective_tolerance(*p, settings).atol == 1e-2);
    fs::remove_all(dir);
  }

  TEST_CASE("derived seeds are deterministic, distinct and non-negative") {
    auto a = eval::derive_seeds(42, 6), b = eval::derive_seeds(42, 6), c = eval::derive_seeds(43, 6);
    CHECK(a == b);
    CHECK(a != c);
    for (size_t i = 0; i < a.size(); ++i) {
      CHECK(a[i] < (uint64_t{1} << 63));
      for (size_t j = i + 1; j < a.size(); ++j) CHECK(a[i] != a[j]);
    }
  }
}

TEST_SUITE("eval::ProblemIndex") {
  TEST_CASE("finds problems by id, folder and name") {
    eval::ProblemIndex index(test_support::fixture_problems_dir());
    auto by_id = index.find("level1/19");
    REQUIRE(by_id.ok());
    CHECK(by_id->name == "relu");
    CHECK(index.find("level1/19_relu")->id == "level1/19");
    CHECK(index.find("relu")->id == "level1/19");
    auto typo = index.find("rleu");
    REQUIRE_FALSE(typo.ok());
    CHECK(typo.error().message.find("unknown problem 'rleu'") == 0);
    CHECK(typo.error().message.find("(did you mean 'relu'?)") != std::string::npos);
  }

  TEST_CASE("selects ranges of a level and named sets, and says when a pattern selects nothing") {
    eval::ProblemIndex index(test_support::fixture_problems_dir());
    auto range = index.select("level1/10-20");
    REQUIRE(range.ok());
    REQUIRE(range->size() == 1);
    CHECK((*range)[0].id == "level1/19");
    CHECK(index.select("level1/19-19")->size() == 1);
    CHECK(index.select("level1/20-30").error().message.find("problem range 'level1/20-30' selects no problem") == 0);
    CHECK(index.select("level1/30-20").error().message == "problem range 'level1/30-20' ends before it starts");
    CHECK(index.select("level2/1-100").error().message.find("selects no problem") != std::string::npos);

    auto set = index.select("set:unit");
    REQUIRE(set.ok());
    CHECK(set->size() == 2);  // as listed; callers keep each problem once
    for (const auto& p : *set) CHECK(p.id == "level1/19");
    CHECK(index.select("set:missing").error().message.find("unknown problem set 'missing'") == 0);
    CHECK_FALSE(index.select("set:../sets/unit").ok());
    auto nested = index.select("set:nested");
    REQUIRE_FALSE(nested.ok());
    CHECK(nested.error().message.find("nested.txt:1: a set lists ids and ranges, not other sets") != std::string::npos);
    auto tagged = index.select("tag:elementwise");
    REQUIRE(tagged.ok());
    CHECK(tagged->size() == 1);
    CHECK(index.select("tag:conv").error().message.find("has the tag 'conv'") != std::string::npos);
    CHECK(index.select("tag:convolution").error().message.find("unknown tag 'convolution' (tags: matmul, conv,") == 0);
    // A plain id is still one problem, and a typo still gets its suggestion.
    CHECK(index.select("relu")->size() == 1);
    CHECK(index.select("rleu").error().message.find("did you mean 'relu'") != std::string::npos);
  }
}

namespace {

// A network's weights as one list: a stem entry, then stages walked with
// zipped lists, each with a nested range whose bound is a loop variable.
const char* kNet = R"(name: net_like
level: 3
number: 99
inputs:
  - name: x
    dtype: float32
    shape: [B, 3, H, W]
    draw: {uniform: {low: 0, high: 1}}
  - name: params
    kind: tensors
    role: weight
    dtype: float32
    items:
      - {name: stem.weight, shape: [C0, 3, 3, 3], draw: {default_init: {fan_in: 27}}}
      - repeat: {s: [1, 2], C: [8, 16], n: [1, 3]}
        items:
          - {name: "layer{s}.0.weight", shape: [C, "C*4"], draw: {default_init: {fan_in: "C*4"}}}
          - repeat: {b: "1..n-1"}
            items:
              - {name: "layer{s}.{b}.weight", shape: ["C*b", H], draw: {constant: {value: 1}}}
      - {name: fc.bias, shape: [10], draw: {constant: {value: 0}}}
sizes:
  full: {B: 4, H: 32, W: 32, C0: 64}
  small: {B: 1, H: 8, W: 8, C0: 4}
)";

std::string with(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_SUITE("eval::Problem weight lists") {
  TEST_CASE("a list expands in order, with loop variables bound in names, shapes and draws") {
    std::string dir = write_problem(kNet);
    auto p = eval::load_problem(dir);
    REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
    const auto& list = p->inputs[1];
    CHECK(list.is_list);
    CHECK(eval::forward_parameters(*p) == "torch::Tensor x, const std::vector<torch::Tensor>& params");
    std::vector<std::string> names;
    for (const auto& e : list.entries) names.push_back(e.name);
    CHECK(names == std::vector<std::string>{"stem.weight", "layer1.0.weight", "layer2.0.weight", "layer2.1.weight",
                                            "layer2.2.weight", "fc.bias"});
    CHECK(eval::resolved_count(list) == 6);

    auto small = eval::resolve_inputs(*p, "small");
    REQUIRE(small.ok());
    REQUIRE(small->size() == 7);  // x, then the six entries
    CHECK((*small)[0].name == "x");
    CHECK((*small)[1].name == "params[0]");
    CHECK((*small)[1].entry == "stem.weight");
    CHECK((*small)[1].list == "params");
    CHECK((*small)[1].is_weight);
    CHECK((*small)[1].shape == std::vector<int64_t>{4, 3, 3, 3});
    CHECK((*small)[3].shape == std::vector<int64_t>{16, 64});  // layer2.0: C=16
    CHECK((*small)[3].draw.b == doctest::Approx(1.0 / 8));     // fan_in C*4 = 64
    CHECK((*small)[5].shape == std::vector<int64_t>{32, 8});   // layer2.2: C*b, H
    CHECK((*small)[5].draw.kind == eval::DrawSpec::Kind::constant);
    auto full = eval::resolve_inputs(*p, "full");
    REQUIRE(full.ok());
    CHECK(full->size() == small->size());
    CHECK((*full)[5].shape == std::vector<int64_t>{32, 32});

    // The prompt's listing: indices, names as written, repeats folded, dims given values.
    CHECK(eval::describe_list(list, *p->size("small")) ==
          "`params` (const std::vector<torch::Tensor>&): 6 float32 tensors, in this order; params[i] is entry i, "
          "{expr} in a name is its value:\n"
          "    [0] stem.weight [4, 3, 3, 3]\n"
          "    [1..4] for (s, C, n) in (1, 8, 1), (2, 16, 3):\n"
          "        layer{s}.0.weight [C, C*4]\n"
          "        for b in 1..n-1:\n"
          "            layer{s}.{b}.weight [C*b, 8]\n"
          "    [5] fc.bias [10]\n");
    fs::remove_all(dir);
  }

  TEST_CASE("the shim hands a list to forward as one vector of its entries") {
    std::string dir = write_problem(kNet);
    auto p = eval::load_problem(dir);
    REQUIRE(p.ok());
    const std::string shim = eval::make_shim(*p);
    CHECK(shim.find("in[0], std::vector<at::Tensor>(in.begin() + 1, in.begin() + 7)") != std::string::npos);
    CHECK(shim.find("if (in.size() != 7u)") != std::string::npos);
    fs::remove_all(dir);
  }

  TEST_CASE("a list's mistakes are errors at the entry or repeat that makes them") {
    CHECK(load_error(with(kNet, "repeat: {b: \"1..n-1\"}", "repeat: {b: \"1..m\"}"))
              .find("spec.yaml:18:21: range of 'b': in expression 'm' at column 1: unknown dim 'm'") !=
          std::string::npos);
    CHECK(load_error(with(kNet, "n: [1, 3]", "n: [1, 3, 4]"))
              .find("loop variable 'n' has 3 values and 's' 2: lists of one repeat are walked together") !=
          std::string::npos);
    CHECK(load_error(with(kNet, "layer{s}.{b}.weight", "layer{s}.0.weight"))
              .find("entry 'layer2.0.weight' appears twice in weight list 'params' (as entries 2 and 3)") !=
          std::string::npos);
    CHECK(load_error(with(kNet, "[\"C*b\", H]", "[\"C*b\", Q]"))
              .find("spec.yaml:20:17: size 'full', entry 'layer2.1.weight': in expression 'Q' at column 1: unknown dim "
                    "'Q'") != std::string::npos);
    CHECK(load_error(with(kNet, "{s: [1, 2], C: [8, 16], n: [1, 3]}", "{s: [1, 2], H: [8, 16], n: [1, 3]}"))
              .find("loop variable 'H' is also a dim") != std::string::npos);
    CHECK(load_error(with(kNet, "repeat: {b: \"1..n-1\"}", "repeat: {s: \"1..n-1\"}"))
              .find("loop variable 's' is already bound by an enclosing repeat") != std::string::npos);
    CHECK(load_error(with(kNet, "    items:\n      - {name: stem", "    shape: [3]\n    items:\n      - {name: stem"))
              .find("unknown key 'shape' in weight list 'params'") != std::string::npos);
    CHECK(load_error(with(kNet, "name: \"layer{s}.0.weight\"", "name: \"layer{s.0.weight\"")).find("'{' without '}'") !=
          std::string::npos);
  }

  TEST_CASE("a list may not hold more entries than a request carries") {
    std::string spec = with(kNet, "repeat: {b: \"1..n-1\"}", "repeat: {b: \"1..n*400\"}");
    CHECK(load_error(spec).find("a weight list holds at most 1000 entries") != std::string::npos);
  }
}

TEST_SUITE("eval KernelBench-compatible mode") {
  TEST_CASE("activation inputs are drawn U[0,1); weights, integers, masks and a spec's own KernelBench draw are not") {
    std::string spec = kGood;
    spec.replace(spec.find("  - name: s\n"), 0,
                 "  - name: m\n    dtype: float32\n    shape: [B]\n    draw: {bernoulli: {p: 0.5}}\n"
                 "  - name: a\n    dtype: float32\n    shape: [B, B]\n    draw: {uniform: {low: -0.1, high: 0}}\n"
                 "    kernelbench_draw: {normal: {}}\n    then: symmetric\n");
    std::string dir = write_problem(spec);
    auto p = eval::load_problem(dir);
    REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
    auto inputs = eval::resolve_inputs(*p, "small");
    REQUIRE(inputs.ok());
    auto kb = *inputs;
    eval::kernelbench_draws(kb);
    using K = eval::DrawSpec::Kind;
    // x: normal(0, 1) in refinery's mode, torch.rand in KernelBench's.
    CHECK((*inputs)[0].draw.kind == K::normal);
    CHECK(kb[0].draw.kind == K::uniform);
    CHECK(kb[0].draw.a == 0);
    CHECK(kb[0].draw.b == 1);
    // w (a weight, default init), t (randint) and m (a mask) keep their draws.
    for (size_t i : {1, 2, 3}) {
      CHECK(kb[i].draw.kind == (*inputs)[i].draw.kind);
      CHECK(kb[i].draw.a == (*inputs)[i].draw.a);
      CHECK(kb[i].draw.b == (*inputs)[i].draw.b);
    }
    // a: the spec's kernelbench_draw, and its structure stays.
    CHECK(kb[4].draw.kind == K::normal);
    CHECK(kb[4].draw.b == 1);
    CHECK(kb[4].then == "symmetric");
    CHECK(kb[5].is_scalar);
    fs::remove_all(dir);
  }

  TEST_CASE("a half-given tolerance keeps the other half of what is in force without it") {
    std::string dir = write_problem(std::string(kGood) + "tolerance: {atol: 0.001, rtol: 0.002}\n");
    auto p = eval::load_problem(dir);
    REQUIRE(p.ok());
    eval::EvalSettings settings;
    settings.atol = 0.5;
    CHECK(eval::effective_tolerance(*p, settings).atol == 0.5);
    CHECK(eval::effective_tolerance(*p, settings).rtol == 0.002);  // the problem's
    p->tolerance.reset();
    p->inputs[0].dtype = eval::DType::float16;
    CHECK(eval::effective_tolerance(*p, settings).rtol == 1e-2);  // the dtype's
    settings.atol.reset();
    settings.rtol = 0.25;
    settings.mode = eval::Mode::kernelbench;
    CHECK(eval::effective_tolerance(*p, settings).atol == 1e-2);  // KernelBench's
    CHECK(eval::effective_tolerance(*p, settings).rtol == 0.25);
    fs::remove_all(dir);
  }

  TEST_CASE("the worker job gets the compat mode's presets last, an explicit tolerance winning") {
    std::string dir = write_problem(kGood);
    auto p = eval::load_problem(dir);
    REQUIRE(p.ok());
    auto inputs = eval::resolve_inputs(*p, "small");
    REQUIRE(inputs.ok());
    eval::EvalSettings settings;
    settings.timing.trace = true;
    const eval::CompiledLibrary library;
    const eval::WorkerJob ours = eval::make_job(*p, settings, *inputs, library, library, eval::LanguageId::cxx, 7);
    CHECK(ours.timing.flush_cache);
    CHECK_FALSE(ours.tf32_cudnn);
    settings.mode = eval::Mode::kernelbench;
    settings.rtol = 0.25;
    const eval::WorkerJob theirs = eval::make_job(*p, settings, *inputs, library, library, eval::LanguageId::cxx, 7);
    CHECK_FALSE(theirs.timing.flush_cache);
    CHECK(theirs.tf32_cudnn);
    CHECK(theirs.timing.trace);
    CHECK(theirs.tolerance.atol == 1e-2);
    CHECK(theirs.tolerance.rtol == 0.25);
    CHECK(theirs.correctness_seeds == ours.correctness_seeds);
    CHECK(theirs.inputs[0].draw.kind == eval::DrawSpec::Kind::uniform);
    fs::remove_all(dir);
  }

  TEST_CASE("KernelBench's tolerance is 1e-2 unless the settings give one") {
    std::string dir = write_problem(std::string(kGood) + "tolerance: {atol: 0.001}\n");
    auto p = eval::load_problem(dir);
    REQUIRE(p.ok());
    eval::EvalSettings settings;
    settings.mode = eval::Mode::kernelbench;
    CHECK(eval::effective_tolerance(*p, settings).atol == 1e-2);
    CHECK(eval::effective_tolerance(*p, settings).rtol == 1e-2);
    settings.atol = 0.5;
    settings.rtol = 0.25;
    CHECK(eval::effective_tolerance(*p, settings).atol == 0.5);
    CHECK(eval::to_string(eval::Mode::kernelbench) == "kernelbench");
    CHECK(eval::parse_mode("refinery").ok());
    CHECK(eval::parse_mode("kernelbanch").error().message ==
          "unknown mode 'kernelbanch' (expected refinery or kernelbench)");
    fs::remove_all(dir);
  }
}
