#include "eval/job.h"

#include <algorithm>

#include "base/fs.h"

namespace eval {

std::string to_string(Profiler profiler) {
  switch (profiler) {
    case Profiler::automatic:
      return "auto";
    case Profiler::none:
      return "none";
    case Profiler::cupti:
      return "cupti";
    case Profiler::ncu:
      return "ncu";
  }
  return "none";
}

base::Result<Profiler> parse_profiler(const std::string& name) {
  for (Profiler p : {Profiler::automatic, Profiler::none, Profiler::cupti, Profiler::ncu})
    if (to_string(p) == name) return p;
  return base::Error{"unknown profiler '" + name + "' (expected auto, none, cupti or ncu)"};
}

using nlohmann::json;

std::string to_string(Backend backend) {
  return backend == Backend::cuda ? "cuda" : "cpu";
}

base::Result<Backend> parse_backend(const std::string& name) {
  if (name == "cpu") return Backend::cpu;
  if (name == "cuda") return Backend::cuda;
  return base::Error{"unknown backend '" + name + "' (expected cpu or cuda)"};
}

json to_json(const WorkerJob& job) {
  json inputs = json::array();
  for (const auto& in : job.inputs)
    inputs.push_back({{"name", in.name},
                      {"scalar", in.is_scalar},
                      {"dtype", to_string(in.dtype)},
                      {"shape", in.shape},
                      {"draw", to_string(in.draw.kind)},
                      {"a", in.draw.a},
                      {"b", in.draw.b},
                      {"then", in.then},
                      {"value", in.scalar_value},
                      {"entry", in.entry},
                      {"weight", in.is_weight},
                      {"python_name", in.python_name}});
  return {{"problem_id", job.problem_id},
          {"backend", to_string(job.backend)},
          {"device", job.device},
          {"threads", job.threads},
          {"reference_library", job.reference_library},
          {"candidate_library", job.candidate_library},
          {"candidate_language", language(job.candidate_language).name},
          {"reference_digest", job.reference_digest},
          {"candidate_digest", job.candidate_digest},
          {"scratch_bytes", job.scratch_bytes},
          {"allow_untrusted", job.allow_untrusted},
          {"runner_cgroup", job.runner_cgroup},
          {"runner_cgroup_version", job.runner_cgroup_version},
          {"runner_memory_bytes", job.runner_memory_bytes},
          {"runner_cgroup_note", job.runner_cgroup_note},
          {"tf32_cudnn", job.tf32_cudnn},
          {"launch_watch", job.launch_watch},
          {"inputs", inputs},
          {"python_init", job.python_init},
          {"correctness_seeds", job.correctness_seeds},
          {"timing_seed", job.timing_seed},
          {"entropy", job.entropy},
          {"tolerance", {{"atol", job.tolerance.atol}, {"rtol", job.tolerance.rtol}}},
          {"max_reported_mismatches", job.max_reported_mismatches},
          {"timing",
           {{"enabled", job.timing.enabled},
            {"warmup", job.timing.warmup},
            {"min_trials", job.timing.min_trials},
            {"max_trials", job.timing.max_trials},
            {"target_seconds", job.timing.target_seconds},
            {"flush_cache", job.timing.flush_cache},
            {"batch_ms", job.timing.batch_ms},
            {"batch_calls", job.timing.batch_calls},
            {"trace", job.timing.trace}}},
          {"profile", {{"tool", to_string(job.profile.tool)}, {"metrics", job.profile.metrics}}},
          {"result_path", job.result_path},
          {"progress_path", job.progress_path}};
}

base::Result<WorkerJob> job_from_json(const json& j) {
  try {
    WorkerJob job;
    job.problem_id = j.at("problem_id").get<std::string>();
    auto backend = parse_backend(j.at("backend").get<std::string>());
    if (!backend) return backend.error();
    job.backend = *backend;
    job.device = j.at("device").get<int>();
    job.threads = j.at("threads").get<int>();
    job.reference_library = j.at("reference_library").get<std::string>();
    job.candidate_library = j.at("candidate_library").get<std::string>();
    TRY_ASSIGN(job.candidate_language, parse_language(j.at("candidate_language").get<std::string>()));
    job.reference_digest = j.at("reference_digest").get<std::string>();
    job.candidate_digest = j.at("candidate_digest").get<std::string>();
    job.scratch_bytes = j.at("scratch_bytes").get<uint64_t>();
    job.allow_untrusted = j.at("allow_untrusted").get<bool>();
    job.runner_cgroup = j.value("runner_cgroup", std::string());
    job.runner_cgroup_version = j.value("runner_cgroup_version", 0);
    job.runner_memory_bytes = j.value("runner_memory_bytes", uint64_t{0});
    job.runner_cgroup_note = j.value("runner_cgroup_note", std::string());
    job.tf32_cudnn = j.value("tf32_cudnn", false);
    job.launch_watch = j.value("launch_watch", true);
    job.python_init = j.value("python_init", std::vector<int64_t>{});
    for (const auto& in : j.at("inputs")) {
      ResolvedInput r;
      r.name = in.at("name").get<std::string>();
      r.is_scalar = in.at("scalar").get<bool>();
      r.entry = in.value("entry", std::string());
      r.python_name = in.value("python_name", std::string());
      r.is_weight = in.value("weight", false);
      auto dtype = parse_dtype(in.at("dtype").get<std::string>());
      if (!dtype) return base::Error{"job: unknown dtype for input " + r.name};
      r.dtype = *dtype;
      r.shape = in.at("shape").get<std::vector<int64_t>>();
      std::string draw = in.at("draw").get<std::string>();
      bool found = false;
      for (auto kind : {DrawSpec::Kind::uniform, DrawSpec::Kind::normal, DrawSpec::Kind::randint,
                        DrawSpec::Kind::bernoulli, DrawSpec::Kind::constant}) {
        if (to_string(kind) == draw) {
          r.draw.kind = kind;
          found = true;
        }
      }
      if (!found) return base::Error{"job: unknown draw '" + draw + "' for input " + r.name};
      r.draw.a = in.at("a").get<double>();
      r.draw.b = in.at("b").get<double>();
      r.then = in.at("then").get<std::string>();
      const auto& transforms = input_transforms();
      if (!r.then.empty() && std::find(transforms.begin(), transforms.end(), r.then) == transforms.end())
        return base::Error{"job: unknown transform '" + r.then + "' for input " + r.name};
      r.scalar_value = in.at("value").get<double>();
      job.inputs.push_back(std::move(r));
    }
    job.correctness_seeds = j.at("correctness_seeds").get<std::vector<uint64_t>>();
    job.timing_seed = j.at("timing_seed").get<uint64_t>();
    job.entropy = j.value("entropy", std::string());
    job.tolerance.atol = j.at("tolerance").at("atol").get<double>();
    job.tolerance.rtol = j.at("tolerance").at("rtol").get<double>();
    job.max_reported_mismatches = j.at("max_reported_mismatches").get<int>();
    const auto& t = j.at("timing");
    job.timing.enabled = t.at("enabled").get<bool>();
    job.timing.warmup = t.at("warmup").get<int>();
    job.timing.min_trials = t.at("min_trials").get<int>();
    job.timing.max_trials = t.at("max_trials").get<int>();
    job.timing.target_seconds = t.at("target_seconds").get<double>();
    job.timing.flush_cache = t.at("flush_cache").get<bool>();
    job.timing.batch_ms = t.value("batch_ms", 2.0);
    job.timing.batch_calls = t.value("batch_calls", 0);
    job.timing.trace = t.value("trace", false);
    if (j.contains("profile")) {
      auto tool = parse_profiler(j["profile"].value("tool", "none"));
      if (!tool) return base::Error{"job: " + tool.error().message};
      job.profile.tool = *tool;
      job.profile.metrics = j["profile"].value("metrics", std::vector<std::string>{});
    }
    job.result_path = j.at("result_path").get<std::string>();
    job.progress_path = j.at("progress_path").get<std::string>();
    return job;
  } catch (const json::exception& e) {
    return base::Error{std::string("malformed job: ") + e.what()};
  }
}

base::Result<WorkerJob> read_job_file(const std::string& path) {
  TRY_ASSIGN(std::string text, base::read_file(path));
  auto parsed = json::parse(text, nullptr, false);
  if (parsed.is_discarded()) return base::Error{path + " is not JSON"};
  return job_from_json(parsed);
}

}  // namespace eval
