#include <doctest/doctest.h>

#include <cmath>
#include <functional>

#include "eval/build/shim.h"
#include "eval/job.h"
#include "eval/verdict/outcome.h"

namespace {
using nlohmann::json;

// A correct outcome with every field to_json writes, its timing consistent.
eval::Outcome full_outcome() {
  eval::Outcome o;
  o.status = eval::Status::correct;
  o.message = "correct; speedup 2.000x";
  o.compile =
      eval::CompileInfo{true, false, 1.5, "compiled\n", "nvcc candidate.cu", "lean", {{"plan", 0.05}, {"device", 2.5}}};
  eval::TrialDiff d;
  d.trial = 1;
  d.output = 0;
  d.max_abs = 0.25;
  d.max_rel = std::nan("");
  d.mismatches = 2;
  d.elements = 32;
  d.nonfinite = true;
  d.first = {{{0, 3}, 1.0, INFINITY}, {{1, 2}, -2.0, -1.5}};
  o.trials.push_back(d);
  eval::Timing t;
  t.reference = {10, 2.0, 2.1, 0.1, 1.9, 2.5, 1.95, 2.3, 2.05};
  t.candidate = {12, 1.0, 1.1, 0.05, 0.9, 1.4, 0.95, 1.2, 1.02};
  t.speedup = 2.0;
  t.clock = "steady_clock";
  t.l2_flushed = true;
  t.claimed_median_ms = 0.98;
  t.judge_overhead_ms = 0.01;
  t.floored_calls = 1;
  t.checked_calls = 3;
  t.lower_bound = true;
  o.timing = t;
  o.entropy = "0123456789abcdef0011223344556677";
  o.output_shapes = {"[4, 8] float32"};
  o.signal = 9;
  o.exit_code = 3;
  o.phase = "timing";
  o.stdout_tail = "out";
  o.stderr_tail = "err";
  o.versions = {{"torch", "2.1.0"}, {"cuda_runtime", 12040}, {"device", "cpu"}};
  o.phases_ms = {{"load", 1.5}, {"correctness", 3.25}};
  o.network_isolated = true;
  o.sandbox = {{"seccomp", true}, {"uid", "nobody"}};
  o.trusted = true;
  profiler::Profile p;
  p.tool = "cupti";
  profiler::KernelRecord k;
  k.name = "relu_kernel";
  k.duration_us = 3.5;
  k.grid[0] = 128;
  k.metrics["gpu__time_duration.sum"] = 3500;
  p.candidate.kernels.push_back(k);
  p.candidate.memory.push_back({"memset", 1024, 0.5});
  p.counters_note = "no counters";
  p.device.name = "test gpu";
  o.profile = p;
  o.device = 1;
  eval::KernelEvidence evidence;
  evidence.watched = true;
  evidence.own_launches = 12;
  evidence.other_launches = 3;
  evidence.timed_own = 10;
  evidence.timed_other = 2;
  evidence.own_us = 300;
  evidence.other_us = 100;
  evidence.threads_left = 1;
  evidence.top_other = "void at::native::elementwise_kernel<...>";
  o.kernels = evidence;
  o.library_only = true;
  o.devices_retired = {{3, "probe of device 3: the reference against itself ended timeout", "level1/19"}};
  return o;
}

// Every node of j (root excluded), as pointers.
void collect(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) {
      out.push_back(at / it.key());
      collect(it.value(), at / it.key(), out);
    }
  if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) {
      out.push_back(at / i);
      collect(j[i], at / i, out);
    }
}

// What any decoded outcome must satisfy, whatever it was decoded from.
void check_consistent(const eval::Outcome& o) {
  if (o.status == eval::Status::correct && !o.timing)
    CHECK((o.message == eval::kTimingDisabledMessage || o.message == eval::kProfiledMessage));
  if (o.timing) {
    for (const auto* s : {&o.timing->reference, &o.timing->candidate}) {
      CHECK(s->trials >= 0);
      for (double v : {s->median_ms, s->mean_ms, s->stdev_ms, s->min_ms, s->max_ms, s->p10_ms, s->p90_ms})
        CHECK((std::isfinite(v) && v >= 0 && v <= 1e9));
    }
    if (o.status == eval::Status::correct) {
      CHECK(o.timing->reference.median_ms > 0);
      CHECK(o.timing->candidate.median_ms > 0);
      CHECK(o.timing->speedup ==
            doctest::Approx(o.timing->reference.median_ms / o.timing->candidate.median_ms).epsilon(1e-6));
    }
  }
  for (const auto& d : o.trials) {
    CHECK((0 <= d.mismatches && d.mismatches <= d.elements));
    CHECK(d.first.size() <= 64);
  }
  auto again = eval::outcome_from_json(eval::to_json(o));
  CHECK_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
}

}  // namespace

TEST_SUITE("eval::Outcome") {
  TEST_CASE("every status round-trips through its name") {
    for (auto s : {eval::Status::compile_error, eval::Status::load_error, eval::Status::runtime_error,
                   eval::Status::timeout, eval::Status::crashed, eval::Status::wrong_shape, eval::Status::mismatch,
                   eval::Status::rejected, eval::Status::correct}) {
      auto parsed = eval::parse_status(eval::to_string(s));
      REQUIRE(parsed.ok());
      CHECK(*parsed == s);
    }
    CHECK(eval::parse_status("fine").error().message == "unknown status 'fine'");
  }

  TEST_CASE("an outcome survives JSON") {
    eval::Outcome o;
    o.status = eval::Status::mismatch;
    o.message = "differs";
    eval::TrialDiff d;
    d.trial = 2;
    d.mismatches = 7;
    d.elements = 100;
    d.max_abs = 0.5;
    d.first.push_back({{1, 2}, 1.0, 1.5});
    o.trials.push_back(d);
    o.compile = eval::CompileInfo{true, true, 1.5, "log", "g++ x", "", {}};
    auto back = eval::outcome_from_json(eval::to_json(o));
    REQUIRE(back.ok());
    CHECK(back->status == eval::Status::mismatch);
    CHECK(back->trials.at(0).trial == 2);
    CHECK(back->trials.at(0).first.at(0).index == std::vector<int64_t>{1, 2});
    CHECK(back->trials.at(0).first.at(0).actual == 1.5);
    CHECK(back->compile->cached);
  }

  TEST_CASE("NaN and Inf in a candidate's output survive JSON") {
    eval::Outcome o;
    o.status = eval::Status::mismatch;
    eval::TrialDiff d;
    d.first.push_back({{0, 1}, 1.0, std::nan("")});
    d.first.push_back({{0, 2}, -INFINITY, INFINITY});
    o.trials.push_back(d);
    auto text = eval::to_json(o).dump();
    auto back = eval::outcome_from_json(nlohmann::json::parse(text));
    REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
    CHECK(std::isnan(back->trials[0].first[0].actual));
    CHECK(back->trials[0].first[1].expected == -INFINITY);
    CHECK(back->trials[0].first[1].actual == INFINITY);
  }

  TEST_CASE("every field to_json writes decodes back to the same JSON") {
    const json written = eval::to_json(full_outcome());
    auto back = eval::outcome_from_json(json::parse(written.dump()));
    REQUIRE_MESSAGE(back.ok(), (back.ok() ? "" : back.error().message));
    CHECK(eval::to_json(*back) == written);
    CHECK(back->timing->candidate.host_median_ms == 1.02);
    CHECK(back->profile->candidate.kernels.at(0).name == "relu_kernel");
    CHECK(back->compile->headers == "lean");
    CHECK(back->compile->steps.size() == 2);
    CHECK(back->device == 1);
    REQUIRE(back->devices_retired.size() == 1);
    CHECK(back->devices_retired[0].during == "level1/19");
    REQUIRE(back->kernels.has_value());
    CHECK(back->kernels->timed_own == 10);
    CHECK(back->kernels->own_share() == doctest::Approx(0.75));
    CHECK(back->library_only);
    CHECK(written["kernels"]["own_share"].get<double>() == doctest::Approx(0.75));
    CHECK(written["kernels"]["library_only"] == false);
  }

  TEST_CASE("a kernels record a candidate forged is refused where it is malformed") {
    auto negative = eval::outcome_from_json(
        json{{"status", "mismatch"}, {"message", "m"}, {"kernels", {{"watched", true}, {"own_us", -1}}}});
    REQUIRE_FALSE(negative.ok());
    CHECK(negative.error().message == "malformed result: kernels.own_us is not a finite non-negative number");
    auto text =
        eval::outcome_from_json(json{{"status", "mismatch"}, {"message", "m"}, {"kernels", {{"timed_own", "many"}}}});
    REQUIRE_FALSE(text.ok());
    CHECK(text.error().message.find("kernels.timed_own is not an integer") != std::string::npos);
    auto not_object = eval::outcome_from_json(json{{"status", "mismatch"}, {"message", "m"}, {"kernels", 3}});
    CHECK_FALSE(not_object.ok());
  }

  TEST_CASE("a correct result without timing is accepted only when timing was disabled or it was a profile run") {
    auto disabled = eval::outcome_from_json(json{{"status", "correct"}, {"message", "correct; timing disabled"}});
    REQUIRE(disabled.ok());
    CHECK(disabled->status == eval::Status::correct);
    CHECK_FALSE(disabled->timing);
    auto profiled = eval::outcome_from_json(json{{"status", "correct"}, {"message", eval::kProfiledMessage}});
    REQUIRE(profiled.ok());
    CHECK_FALSE(profiled->timing);
    auto forged = eval::outcome_from_json(json{{"status", "correct"}});
    REQUIRE_FALSE(forged.ok());
    CHECK(forged.error().message == "malformed result: timing is missing from a correct result");
  }

  TEST_CASE("each kind of malformed result is an error that names the member") {
    struct Case {
      std::function<void(json&)> change;
      std::string error;
    };
    const std::string big(65537, 'x');
    const Case cases[] = {
        {[](json& j) { j = json::array(); }, "malformed result: not a JSON object"},
        {[](json& j) { j = "correct"; }, "malformed result: not a JSON object"},
        {[](json& j) { j.erase("status"); }, "malformed result: status is missing"},
        {[](json& j) { j["status"] = 3; }, "malformed result: status is not a string"},
        {[](json& j) { j["status"] = "fine"; }, "malformed result: status 'fine' is unknown"},
        {[](json& j) { j["status"] = std::string(100, 'z'); },
         "malformed result: status '" + std::string(40, 'z') + "...' is unknown"},
        {[](json& j) { j["message"] = 5; }, "malformed result: message is not a string"},
        {[](json& j) { j["entropy"] = "0123"; }, "malformed result: entropy is not 32 hex digits"},
        {[](json& j) { j["entropy"] = std::string(32, 'g'); }, "malformed result: entropy is not 32 hex digits"},
        {[](json& j) { j["timing"]["lower_bound"] = 1; }, "malformed result: timing.lower_bound is not a boolean"},
        {[&](json& j) { j["stderr_tail"] = big; }, "malformed result: stderr_tail is longer than 65536 bytes"},
        {[](json& j) { j["timing"] = json::array(); }, "malformed result: timing is not an object"},
        {[](json& j) { j["timing"].erase("reference"); }, "malformed result: timing.reference is missing"},
        {[](json& j) { j["timing"]["candidate"]["median_ms"] = -1; },
         "malformed result: timing.candidate.median_ms is not a finite non-negative number"},
        {[](json& j) { j["timing"]["candidate"]["median_ms"] = "nan"; },
         "malformed result: timing.candidate.median_ms is not a finite non-negative number"},
        {[](json& j) { j["timing"]["reference"]["median_ms"] = 1e308; },
         "malformed result: timing.reference.median_ms is more than 1e+09"},
        {[](json& j) { j["timing"]["speedup"] = 100.0; },
         "malformed result: timing.speedup is not timing.reference.median_ms / timing.candidate.median_ms"},
        {[](json& j) { j["timing"].erase("speedup"); },
         "malformed result: timing.speedup is not timing.reference.median_ms / timing.candidate.median_ms"},
        {[](json& j) {
           j["timing"]["candidate"]["median_ms"] = 0;
           j["timing"]["speedup"] = 0;
         },
         "malformed result: timing.candidate.median_ms is not positive"},
        {[](json& j) { j["timing"]["reference"]["trials"] = -3; },
         "malformed result: timing.reference.trials is not an integer from 0 to 10000000"},
        {[](json& j) { j["timing"]["judge_raise_ms"] = -1.0; },
         "malformed result: timing.judge_raise_ms is not a finite non-negative number"},
        {[](json& j) { j["timing"]["trace"] = json::array(); }, "malformed result: timing.trace is not an object"},
        {[](json& j) {
           j["timing"]["trace"] = {{"windows", std::string(5 << 20, 'x')}};
         },
         "malformed result: timing.trace is larger than 4194304 bytes"},
        {[](json& j) { j["trials"] = json::object(); }, "malformed result: trials is not an array"},
        {[](json& j) { j["trials"] = json(std::vector<json>(10001, json::object())); },
         "malformed result: trials has more than 10000 entries"},
        {[](json& j) { j["trials"][0] = 7; }, "malformed result: trials[0] is not an object"},
        {[](json& j) { j["trials"][0]["mismatches"] = 40; },
         "malformed result: trials[0].mismatches is more than trials[0].elements"},
        {[](json& j) { j["trials"][0]["elements"] = -1; },
         "malformed result: trials[0].elements is not an integer from 0 to 9223372036854775807"},
        {[](json& j) { j["trials"][0]["trial"] = 18446744073709551615ull; },
         "malformed result: trials[0].trial is not an integer from 0 to 10000"},
        {[](json& j) { j["trials"][0]["max_abs"] = -0.5; }, "malformed result: trials[0].max_abs is negative"},
        {[](json& j) { j["trials"][0]["first_mismatches"] = json(std::vector<json>(65, json::object())); },
         "malformed result: trials[0].first_mismatches has more than 64 entries"},
        {[](json& j) { j["trials"][0]["first_mismatches"][0]["index"] = "0,3"; },
         "malformed result: trials[0].first_mismatches[0].index is not an array"},
        {[](json& j) { j["trials"][0]["first_mismatches"][1]["actual"] = "big"; },
         "malformed result: trials[0].first_mismatches[1].actual is not a number, \"nan\", \"inf\" or \"-inf\""},
        {[](json& j) { j["output_shapes"] = json(std::vector<std::string>(1025, "[1] float32")); },
         "malformed result: output_shapes has more than 1024 entries"},
        {[](json& j) { j["output_shapes"][0] = nullptr; }, "malformed result: output_shapes[0] is not a string"},
        {[](json& j) { j["signal"] = 1.5; }, "malformed result: signal is not an integer from 0 to 127"},
        {[](json& j) { j["phases_ms"]["load"] = "fast"; },
         "malformed result: phases_ms.load is not a finite non-negative number"},
        {[](json& j) { j["versions"]["torch"] = json::object(); },
         "malformed result: versions.torch is not a string, a number or a boolean"},
        {[](json& j) { j["network_isolated"] = "yes"; }, "malformed result: network_isolated is not a boolean"},
        {[](json& j) { j["compile"]["ok"] = 1; }, "malformed result: compile.ok is not a boolean"},
        {[](json& j) { j["profile"] = 7; }, "malformed result: profile is not an object"},
    };
    for (const auto& c : cases) {
      json j = eval::to_json(full_outcome());
      c.change(j);
      INFO(c.error);
      auto r = eval::outcome_from_json(j);
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().message == c.error);
    }
  }

  TEST_CASE("any mutation of a valid result decodes to a consistent outcome or is an error") {
    const json valid = eval::to_json(full_outcome());
    std::vector<json::json_pointer> nodes;
    collect(valid, json::json_pointer(), nodes);
    const json replacements[] = {nullptr, "x", -1, 1e308, json::array(), json::object()};
    int decoded = 0, refused = 0;
    auto decode = [&](const json& j) {
      base::Result<eval::Outcome> r = base::Error{"not run"};
      CHECK_NOTHROW(r = eval::outcome_from_json(j));
      if (r.ok()) {
        ++decoded;
        check_consistent(*r);
      } else {
        ++refused;
        CHECK(r.error().message.rfind("malformed ", 0) == 0);
        CHECK(r.error().message.rfind("malformed result: [json.exception", 0) != 0);  // never the backstop
      }
    };
    for (const auto& at : nodes) {
      INFO(at.to_string());
      json dropped = valid;
      json& parent = dropped[at.parent_pointer()];
      if (parent.is_object())
        parent.erase(at.back());
      else
        parent.erase(std::stoul(at.back()));
      decode(dropped);
      for (const auto& r : replacements) {
        json changed = valid;
        changed[at] = r;
        decode(changed);
      }
    }
    CHECK(decoded > 0);
    CHECK(refused > 0);
  }

  TEST_CASE("redaction reaches every text an outcome carries") {
    const std::string key = "sk-secret-0123456789";
    eval::Outcome o = full_outcome();
    o.message = "found " + key;
    o.phase = key;
    o.stdout_tail = key + "\n";
    o.stderr_tail = "OPENAI_API_KEY=" + key;
    o.compile->log = "/proc/1/environ:1: OPENAI_API_KEY=" + key;
    o.compile->command = "g++ -D" + key;
    o.output_shapes = {"[" + key + "]"};
    o.versions["leak"] = key;
    o.sandbox["note"] = key;
    o.profile->counters_note = key;
    o.profile->device.name = key;
    o.profile->candidate.kernels[0].name = key;
    o.profile->candidate.memory[0].kind = key;
    eval::redact(o, base::Redactor({key}));
    const std::string text = eval::to_json(o).dump();
    CHECK(text.find(key) == std::string::npos);
    CHECK(o.message == "found [REDACTED]");
    CHECK(o.stderr_tail == "OPENAI_API_KEY=[REDACTED]");
    CHECK(o.compile->log == "/proc/1/environ:1: OPENAI_API_KEY=[REDACTED]");
    CHECK(o.versions["torch"] == "2.1.0");
    CHECK(o.versions["cuda_runtime"] == 12040);
  }

  TEST_CASE("a malformed result is an error, not a crash") {
    auto r = eval::outcome_from_json(nlohmann::json{{"message", "no status"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("malformed result") == 0);
  }

  TEST_CASE("the summary has the promised keys, with speedup null unless correct") {
    eval::Outcome o;
    o.status = eval::Status::correct;
    o.timing = eval::Timing{};
    o.timing->speedup = 2.0;
    o.timing->candidate.median_ms = 1.0;
    o.timing->reference.median_ms = 2.0;
    auto j = eval::summary_json(o);
    CHECK(j["status"] == "correct");
    CHECK(j["speedup"] == 2.0);
    CHECK(j["candidate_ms"] == 1.0);
    CHECK(j["reference_ms"] == 2.0);
    CHECK(j.contains("message"));
    o.status = eval::Status::rejected;
    o.timing.reset();
    j = eval::summary_json(o);
    CHECK(j["speedup"].is_null());
    CHECK(j["candidate_ms"].is_null());
    CHECK(j["reference_ms"].is_null());
  }
}

TEST_SUITE("eval::WorkerJob") {
  TEST_CASE("a job survives JSON") {
    eval::WorkerJob job;
    job.problem_id = "level1/19";
    job.backend = eval::Backend::cuda;
    job.candidate_language = eval::LanguageId::cuda_cxx;
    eval::ResolvedInput in;
    in.name = "x";
    in.shape = {3, 4};
    in.draw = {eval::DrawSpec::Kind::normal, 0, 2};
    in.then = "symmetric";
    job.inputs.push_back(in);
    job.correctness_seeds = {1, 2, 3};
    job.timing.max_trials = 7;
    auto back = eval::job_from_json(eval::to_json(job));
    REQUIRE(back.ok());
    CHECK(back->backend == eval::Backend::cuda);
    CHECK(back->candidate_language == eval::LanguageId::cuda_cxx);
    CHECK(back->inputs.at(0).shape == std::vector<int64_t>{3, 4});
    CHECK(back->inputs.at(0).draw.kind == eval::DrawSpec::Kind::normal);
    CHECK(back->inputs.at(0).draw.b == 2);
    CHECK(back->inputs.at(0).then == "symmetric");
    CHECK(back->correctness_seeds == std::vector<uint64_t>{1, 2, 3});
    CHECK(back->timing.max_trials == 7);

    auto bad = eval::to_json(job);
    bad["inputs"][0]["then"] = "transpose";
    auto refused = eval::job_from_json(bad);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message == "job: unknown transform 'transpose' for input x");
    auto unknown = eval::to_json(job);
    unknown["candidate_language"] = "fortran";
    auto no_loader = eval::job_from_json(unknown);
    REQUIRE_FALSE(no_loader.ok());
    CHECK(no_loader.error().message == "unknown language 'fortran' (expected one of: cpp, cuda, python)");
  }
}

TEST_SUITE("eval::shim") {
  TEST_CASE("passes tensors and scalars in spec order") {
    eval::Problem p;
    eval::InputSpec x, s, n, b;
    x.name = "x";
    s.name = "s";
    s.is_scalar = true;
    s.dtype = eval::DType::float64;
    n.name = "n";
    n.is_scalar = true;
    n.dtype = eval::DType::int64;
    b.name = "flag";
    b.is_scalar = true;
    b.dtype = eval::DType::boolean;
    p.inputs = {x, s, n, b};
    std::string shim = eval::make_shim(p);
    CHECK(shim.find("run(out, in[0], in[1].item<double>(), in[2].item<int64_t>(), in[3].item<bool>())") !=
          std::string::npos);
    CHECK(shim.find(std::string("int ") + eval::kEntrySymbol + "(") != std::string::npos);
  }
}
