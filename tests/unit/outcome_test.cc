#include <doctest/doctest.h>

#include <cmath>

#include "eval/job.h"
#include "eval/outcome.h"
#include "eval/shim.h"

TEST_SUITE("eval::Outcome") {
  TEST_CASE("every status round-trips through its name") {
    for (auto s : {eval::Status::compile_error, eval::Status::load_error, eval::Status::runtime_error,
                   eval::Status::timeout, eval::Status::crashed, eval::Status::wrong_shape,
                   eval::Status::mismatch, eval::Status::rejected, eval::Status::correct}) {
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
    o.compile = eval::CompileInfo{true, true, 1.5, "log", "g++ x"};
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
    CHECK(shim.find("forward(in[0], in[1].item<double>(), in[2].item<int64_t>(), in[3].item<bool>())") !=
          std::string::npos);
    CHECK(shim.find(std::string("int ") + eval::kEntrySymbol + "(") != std::string::npos);
  }
}
