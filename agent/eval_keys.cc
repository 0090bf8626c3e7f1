#include "agent/eval_keys.h"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include "base/text.h"

namespace agent {
namespace yaml = base::yaml;
using base::Error;
using base::Result;
using base::Status;
using eval::EvalSettings;

namespace {

// "a, b or c"
std::string one_of(const std::vector<std::string>& choices) {
  std::string out;
  for (size_t i = 0; i < choices.size(); ++i)
    out += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  return out;
}

class YamlSource : public KeySource {
 public:
  YamlSource(const yaml::Document& doc, const YAML::Node& value, const std::string& key)
      : doc_(doc), value_(value), key_(key) {}
  Result<int64_t> integer(int64_t min, int64_t max) override { return yaml::as_int_in(doc_, value_, key_, min, max); }
  Result<double> number(double min, double max) override { return yaml::as_double_in(doc_, value_, key_, min, max); }
  Result<std::string> text() override { return yaml::as_string(doc_, value_, key_); }
  Result<std::string> choice(const std::vector<std::string>& choices) override {
    return yaml::as_choice(doc_, value_, key_, choices);
  }
  Result<bool> boolean() override {
    TRY_ASSIGN(std::string v, yaml::as_choice(doc_, value_, key_, {"true", "false"}));
    return v == "true";
  }
  Result<std::vector<std::string>> items() override {
    std::vector<std::string> out;
    if (value_.IsScalar()) {
      TRY_ASSIGN(std::string v, text());
      out.push_back(v);
    } else if (value_.IsMap()) {
      for (auto it = value_.begin(); it != value_.end(); ++it) {
        TRY_ASSIGN(std::string k, yaml::as_string(doc_, it->first, key_));
        TRY_ASSIGN(std::string v, yaml::as_string(doc_, it->second, key_ + "." + k));
        out.push_back(k + "=" + v);
        places_.push_back(it->first);
      }
    } else {
      TRY(yaml::expect_sequence(doc_, value_, "'" + key_ + "'"));
      for (const auto& item : value_) {
        TRY_ASSIGN(std::string v, yaml::as_string(doc_, item, key_));
        out.push_back(v);
        places_.push_back(item);
      }
    }
    return out;
  }
  std::string name() const override { return "'" + key_ + "'"; }
  Error error(const std::string& message, int index) const override {
    const bool item = index >= 0 && static_cast<size_t>(index) < places_.size();
    return doc_.error_at(item ? places_[index] : value_, message);
  }

 private:
  const yaml::Document& doc_;
  const YAML::Node& value_;
  std::string key_;
  std::vector<YAML::Node> places_;  // items()'s nodes, for errors
};

class FlagSource : public KeySource {
 public:
  // `flag`: the row's flag, or its old name where that is the one given.
  FlagSource(const Args& args, const EvalKey& row, std::string flag) : args_(args), row_(row), flag_(std::move(flag)) {}
  Result<int64_t> integer(int64_t min, int64_t max) override { return args_.integer(flag_, 0, min, max); }
  Result<double> number(double min, double max) override { return args_.number(flag_, 0, min, max); }
  Result<std::string> text() override { return args_.get(flag_); }
  Result<std::string> choice(const std::vector<std::string>& choices) override {
    std::string v = args_.get(flag_);
    if (std::find(choices.begin(), choices.end(), v) == choices.end())
      return base::usage_error(name() + " must be " + one_of(choices) + ", not '" + v + "'");
    return v;
  }
  Result<bool> boolean() override { return row_.form != FlagForm::given_false; }
  Result<std::vector<std::string>> items() override {
    std::vector<std::string> out;
    for (const auto& item : base::split(args_.get(flag_), ','))
      if (!base::trim(item).empty()) out.push_back(base::trim(item));
    return out;
  }
  std::string name() const override { return "--" + flag_; }
  Error error(const std::string& message, int) const override { return base::usage_error(message); }

 private:
  const Args& args_;
  const EvalKey& row_;
  std::string flag_;
};

// Reads a value of its source's type into a field of another arithmetic type.
template <class Field, class Value>
Status into(Result<Value> value, Field& field) {
  if (!value) return value.error();
  field = static_cast<Field>(*value);
  return {};
}

Status decode_devices(KeySource& s, EvalSettings& e) {
  TRY_ASSIGN(std::vector<std::string> items, s.items());
  e.launch.devices.clear();
  if (items.size() == 1 && items[0] == "all") return {};
  if (items.empty()) return s.error(s.name() + " is empty (leave it out, or say 'all', for every GPU)");
  for (size_t i = 0; i < items.size(); ++i) {
    int gpu = -1;
    const char* end = items[i].data() + items[i].size();
    if (std::from_chars(items[i].data(), end, gpu).ptr != end || gpu < 0 || gpu > 4095)
      return s.error(s.name() + " is 'all' or a list of GPU numbers (0 to 4095), such as [0, 1]", static_cast<int>(i));
    if (std::find(e.launch.devices.begin(), e.launch.devices.end(), gpu) != e.launch.devices.end())
      return s.error("GPU " + items[i] + " is listed twice in " + s.name(), static_cast<int>(i));
    e.launch.devices.push_back(gpu);
  }
  return {};
}

Status decode_static_checks(KeySource& s, EvalSettings& e) {
  TRY_ASSIGN(std::vector<std::string> items, s.items());
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i] != "off" && items[i].find('=') == std::string::npos)
      return s.error(s.name() + " is 'off' or a map of rule: off | warn | reject (as a flag: RULE=ACTION,...)",
                     static_cast<int>(i));
    if (auto applied = eval::apply_policy(e.static_checks, items[i]); !applied)
      return s.error(applied.error().message, static_cast<int>(i));
  }
  return {};
}

Status decode_cache_size(KeySource& s, EvalSettings& e) {
  TRY_ASSIGN(std::string text, s.text());
  auto bytes = base::parse_bytes(text);
  if (!bytes) return s.error(s.name() + " must be a size such as 5GiB or 500MB, or 0 for no limit, not '" + text + "'");
  e.compile.cache_max_bytes = *bytes;
  return {};
}

const std::string kNotInCampaign = "a campaign's config has no such key: ";

}  // namespace

const std::vector<EvalKey>& eval_keys() {
  using F = FlagForm;
  static const std::vector<EvalKey> keys = {
      {"backend", "backend", F::value, "cpu, cuda or auto (default: cuda when a GPU is visible)", "",
       [](KeySource& s, EvalSettings& e) -> Status {
         TRY_ASSIGN(std::string name, s.choice({"auto", "cpu", "cuda"}));
         if (name == "auto")
           e.asked.backend.reset();
         else
           e.asked.backend = *eval::parse_backend(name);
         return {};
       }},
      {"", "size", F::value, "size preset: small or full (default: small on cpu, full on cuda)",
       "a campaign's config gives it as problems.size",
       [](KeySource& s, EvalSettings& e) -> Status {
         auto name = s.choice({"small", "full"});
         if (!name) return name.error();
         e.asked.size = *eval::parse_size(*name);
         return {};
       }},
      {"timeout", "timeout", F::value, "seconds before the worker is killed (default 300)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.number(1, 86400), e.launch.timeout); }},
      {"trials", "trials", F::value, "correctness trials (default 5)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.integer(1, 1000), e.trials); }},
      {"atol", "atol", F::value,
       "absolute tolerance over the problem's (default: the problem's, else its dtype's; README, How a candidate is "
       "evaluated)",
       "", [](KeySource& s, EvalSettings& e) { return into(s.number(0, 1000), e.atol); }},
      {"rtol", "rtol", F::value,
       "relative tolerance over the problem's (default: the problem's, else its dtype's; README, How a candidate is "
       "evaluated)",
       "", [](KeySource& s, EvalSettings& e) { return into(s.number(0, 1000), e.rtol); }},
      {"timing_trials", "timing-trials", F::value, "most timed trials of each side (default 100)", "",
       [](KeySource& s, EvalSettings& e) -> Status {
         TRY(into(s.integer(1, 100000), e.timing.max_trials));
         e.timing.min_trials = std::min(e.timing.min_trials, e.timing.max_trials);
         return {};
       }},
      {"", "no-timing", F::given_false, "check correctness only",
       kNotInCampaign + "a campaign's verdicts and fast_p need timings",
       [](KeySource& s, EvalSettings& e) { return into(s.boolean(), e.timing.enabled); }},
      {"launch_watch", "no-launch-watch", F::given_false,
       "cuda: no launch watch, so no kernel evidence and no library-only verdict (to measure what it costs)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.boolean(), e.launch_watch); }},
      {"timing_trace", "timing-trace", F::given_true,
       "add every timed window as the judge saw it to the result (timing.trace)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.boolean(), e.timing.trace); }},
      {"", "seed", F::value, "master seed for the hidden input seeds, mixed with the judge's secret (default: random)",
       "a campaign's config gives it as its top-level seed",
       [](KeySource& s, EvalSettings& e) { return into(s.integer(0, INT64_MAX), e.seed); }},
      {"", "entropy", F::value,
       "the judge's secret of a recorded result (its \"entropy\"): with its --seed, the same inputs again",
       kNotInCampaign + "it repeats one recorded evaluation's inputs, and a campaign's evaluations each draw their own",
       [](KeySource& s, EvalSettings& e) -> Status {
         TRY_ASSIGN(e.entropy, s.text());
         if (!eval::is_entropy(e.entropy))
           return s.error(s.name() + " must be 32 lower-case hex digits, as a result's \"entropy\" is");
         return {};
       }},
      {"", "batch-calls", F::value,
       "timed calls per window (default: sized from the reference's warm-up); for benchmarks",
       kNotInCampaign + "it fixes the judge's window for benchmarks of the judge (bench/batch_size.sh)",
       [](KeySource& s, EvalSettings& e) { return into(s.integer(1, 1 << 16), e.timing.batch_calls); }},
      {"threads", "threads", F::value,
       "cpu backend: threads for reference and candidate (default: all, or a worker's share)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.integer(0, 1024), e.threads); }},
      {"devices", "devices", F::value, "cuda: the GPUs evaluations run on, such as 0,2, or all (default: all)", "",
       decode_devices},
      {"workers", "workers", F::value,
       "cpu backend: evaluations run (and timed) at once, each a worker of its own (default 1)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.integer(1, 256), e.launch.workers); }, "runners"},
      {"standby", "standby", F::value,
       "keep a judge whose runner has imported torch waiting for the next Python evaluation: auto (cuda only), on "
       "(cpu too), off (default auto)",
       "",
       [](KeySource& s, EvalSettings& e) -> Status {
         TRY_ASSIGN(std::string name, s.choice({"auto", "on", "off"}));
         e.launch.standby = name == "on"    ? eval::Standby::on
                            : name == "off" ? eval::Standby::off
                                            : eval::Standby::automatic;
         return {};
       }},
      {"cuda_arch", "cuda-arch", F::value, "nvcc target, e.g. 90a (default: the GPU's, else 90a)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.text(), e.compile.cuda_arch); }},
      {"", "cache-dir", F::value, "compile cache (default: ~/.cache/refinery)",
       kNotInCampaign + "a folder of the machine, not of the experiment (refinery run --cache-dir)",
       [](KeySource& s, EvalSettings& e) { return into(s.text(), e.compile.cache_dir); }},
      {"cache_max_size", "cache-max-size", F::value,
       "the compile cache's size, e.g. 5GiB or 500MB; least recently used compiles go beyond it (default 5GiB; 0: no "
       "limit)",
       "", decode_cache_size},
      {"", "problems", F::value, "problems folder (default: $REFINERY_PROBLEMS or the source tree's)",
       kNotInCampaign + "a folder of the machine, not of the experiment (refinery run --problems)",
       [](KeySource& s, EvalSettings& e) { return into(s.text(), e.problems_dir); }},
      // Before profiler, so that --profiler wins over --profile.
      {"", "profile", F::given_true, "cuda: profile a correct candidate and print the profile section",
       "a config says profiler: cupti",
       [](KeySource&, EvalSettings& e) -> Status {
         e.asked.profiler = eval::Profiler::cupti;
         return {};
       }},
      {"profiler", "profiler", F::value,
       "cupti or ncu, which implies --profile; none; or auto (cupti where a campaign's strategies ask for profile "
       "feedback, else none)",
       "",
       [](KeySource& s, EvalSettings& e) -> Status {
         TRY_ASSIGN(std::string name, s.choice({"auto", "cupti", "ncu", "none"}));
         e.asked.profiler = *eval::parse_profiler(name);
         return {};
       }},
      {"metrics", "metrics", F::value, "comma-separated counters for the profile (default: the speed-of-light set)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.items(), e.asked.metrics); }},
      {"", "keep", F::given_true, "keep the worker's job folder",
       kNotInCampaign + "it keeps one evaluation's folder for debugging, and a campaign would keep thousands",
       [](KeySource& s, EvalSettings& e) { return into(s.boolean(), e.launch.keep_job_dirs); }},
      {"max_uncertainty", "max-uncertainty", F::value,
       "a timing whose speedup is known less well than this (relative) is measured again (default 0.1)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.number(0, 1000), e.max_uncertainty); }},
      {"remeasure", "remeasure", F::value, "how many more times an unstable timing is measured (default 1)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.integer(0, 10), e.remeasure); }},
      {"hidden_shapes", "hidden-shapes", F::value,
       "shapes besides the shown one a correct candidate is checked on, drawn from the spec's rules (default 0)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.integer(0, 100), e.hidden_shapes); }},
      {"allow_untrusted", "allow-untrusted", F::given_true,
       "run even where the platform refuses a layer of the sandbox (see refinery doctor)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.boolean(), e.allow_untrusted); }},
      {"compile_memory_gib", "compile-memory-gib", F::value,
       "address space of each compiler process, and each compile step's processes together in their memory cgroup "
       "where the host allows one, in GiB (default 6); a compile past it is a compile error",
       "", [](KeySource& s, EvalSettings& e) { return into(s.number(1, 1024), e.compile.memory_gib); }},
      {"lean_headers", "full-headers", F::given_false,
       "cuda: compile <torch/torch.h> and <torch/extension.h> as LibTorch's own, never lean", "",
       [](KeySource& s, EvalSettings& e) { return into(s.boolean(), e.compile.lean_headers); }},
      {"compat", "compat", F::value, "refinery (default) or kernelbench: evaluate as KernelBench v0.1 does (README)",
       "",
       [](KeySource& s, EvalSettings& e) -> Status {
         TRY_ASSIGN(std::string name, s.choice({"refinery", "kernelbench"}));
         e.mode = *eval::parse_mode(name);
         return {};
       }},
      {"precision", "precision", F::value,
       "fp32 (default), fp16 or bf16: cast every float32 input and weight, for both sides, with the dtype's tolerance "
       "(a problem whose spec calls the precision unfit runs at fp32)",
       "",
       [](KeySource& s, EvalSettings& e) -> Status {
         TRY_ASSIGN(std::string name, s.choice(eval::precision_names()));
         e.precision = *eval::parse_precision(name);
         return {};
       }},
      {"static_checks", "static-checks", F::value,
       "RULE=ACTION,... (off, warn, reject) or off: what the candidate's source may do (docs/integrity.md)", "",
       decode_static_checks},
      {"quarantine_speedup", "quarantine-speedup", F::value,
       "a correct speedup above this is quarantined until accepted (default 20; 0: no factor)", "",
       [](KeySource& s, EvalSettings& e) { return into(s.number(0, 1e9), e.quarantine_speedup); }},
      {"library_only", "library-only", F::value,
       "cuda: count, correct (default: correct, left out of fast_p for p > 0) or reject a candidate that ran no "
       "kernel of its own",
       "",
       [](KeySource& s, EvalSettings& e) -> Status {
         TRY_ASSIGN(std::string name, s.choice({"count", "correct", "reject"}));
         e.library_only = *eval::parse_library_only(name);
         return {};
       }},
  };
  return keys;
}

const std::vector<FlagSpec>& eval_flags() {
  static const std::vector<FlagSpec> flags = [] {
    std::vector<FlagSpec> out;
    for (const auto& row : eval_keys()) {
      if (!row.flag.empty()) out.push_back({row.flag, row.form == FlagForm::value, row.help});
      if (!row.old_name.empty())
        out.push_back({row.old_name, row.form == FlagForm::value, "the old name of --" + row.flag + " (deprecated)"});
    }
    out.push_back({"json", false, "print one JSON object per evaluation"});
    return out;
  }();
  return flags;
}

Status decode_eval_section(const yaml::Document& doc, const YAML::Node& section, EvalSettings& settings,
                           std::vector<std::string>* notes) {
  TRY(yaml::expect_map(doc, section, "'eval'"));
  std::vector<std::string> keys;
  for (const auto& row : eval_keys()) {
    if (!row.key.empty()) keys.push_back(row.key);
    if (!row.old_name.empty()) keys.push_back(row.old_name);
  }
  TRY(yaml::check_keys(doc, section, keys, "eval"));
  for (const auto& row : eval_keys()) {
    if (row.key.empty()) continue;
    std::string name = row.key;
    if (!row.old_name.empty() && section[row.old_name]) {
      const YAML::Node old_value = section[row.old_name];  // YamlSource keeps a reference
      YamlSource old(doc, old_value, row.old_name);
      if (section[row.key])
        return old.error("'" + row.old_name + "' is the old name of '" + row.key + "': give only '" + row.key + "'",
                         -1);
      name = row.old_name;
      if (notes)
        notes->push_back("eval." + row.old_name + " is deprecated: it is now eval." + row.key + " (the same setting)");
    }
    if (!section[name]) continue;
    const YAML::Node value = section[name];
    YamlSource source(doc, value, name);
    TRY(row.decode(source, settings));
  }
  return {};
}

Result<EvalSettings> eval_settings_from_args(const Args& args, std::vector<std::string>* notes) {
  EvalSettings settings;
  for (const auto& row : eval_keys()) {
    if (row.flag.empty()) continue;
    std::string flag = row.flag;
    if (!row.old_name.empty() && args.has(row.old_name)) {
      if (args.has(row.flag))
        return base::usage_error("--" + row.old_name + " is the old name of --" + row.flag + ": give only --" +
                                 row.flag);
      flag = row.old_name;
      if (notes)
        notes->push_back("--" + row.old_name + " is deprecated: it is now --" + row.flag + " (the same setting)");
    }
    if (!args.has(flag)) continue;
    FlagSource source(args, row, flag);
    TRY(row.decode(source, settings));
  }
  return settings;
}

}  // namespace agent
