// refinery slurm CONFIG --shards N [--partition P] [--gpus-per-task G] [--time T] [--out RUN] [--dry-run]
// refinery slurm --status RUN
//
// Splits a campaign over a Slurm job array (agent/campaign/shard.h): task I
// runs `refinery run CONFIG --shard I/N --out RUN/shards/I`, resumable like any
// run, so a requeued or preempted task picks its shard up where it stopped.
// RUN/slurm/ holds the job script, each task's output and exit code, and the
// job's id; `refinery report RUN` reads the shards as one campaign.
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "agent/cli/args.h"
#include "agent/cli/commands.h"
#include "agent/config.h"
#include "base/fs.h"
#include "base/subprocess.h"
#include "base/text.h"

extern char** environ;

namespace agent {
namespace fs = std::filesystem;
namespace {

// Single quotes for the shell, with any quote inside closed and escaped.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::vector<std::string> environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  return env;
}

std::string job_script(const std::string& name, const std::string& refinery, const std::string& config,
                       const std::string& run, int shards, const Args& args) {
  std::string s = "#!/bin/bash\n";
  s += "# Written by refinery slurm: task I of the array runs shard I of " + std::to_string(shards) + ".\n";
  s += "#SBATCH --job-name=refinery-" + name + "\n";
  s += "#SBATCH --array=0-" + std::to_string(shards - 1) + "\n";
  s += "#SBATCH --ntasks=1\n";
  s += "#SBATCH --requeue\n";
  s += "#SBATCH --output=" + run + "/slurm/%a.out\n";
  s += "#SBATCH --error=" + run + "/slurm/%a.err\n";
  if (args.has("partition")) s += "#SBATCH --partition=" + args.get("partition") + "\n";
  if (args.has("gpus-per-task")) s += "#SBATCH --gpus-per-task=" + args.get("gpus-per-task") + "\n";
  if (args.has("time")) s += "#SBATCH --time=" + args.get("time") + "\n";
  if (args.has("cpus-per-task")) s += "#SBATCH --cpus-per-task=" + args.get("cpus-per-task") + "\n";
  s += "set -u\n";
  s += "i=${SLURM_ARRAY_TASK_ID:?not a Slurm array task}\n";
  s += "rm -f " + quoted(run) + "/slurm/$i.exit\n";
  s += quoted(refinery) + " run " + quoted(config) + " --shard \"$i/" + std::to_string(shards) + "\" --out " +
       quoted(run) + "/shards/\"$i\"\n";
  s += "code=$?\n";
  s += "echo \"$code\" > " + quoted(run) + "/slurm/\"$i\".exit\n";
  s += "exit \"$code\"\n";
  return s;
}

int status(const std::string& run) {
  auto job = base::read_file(run + "/slurm/job.json");
  if (!job) {
    std::fprintf(stderr, "refinery slurm: %s has no slurm/job.json (not submitted by refinery slurm)\n", run.c_str());
    return 1;
  }
  auto j = nlohmann::json::parse(*job, nullptr, false);
  if (j.is_discarded() || !j.contains("shards") || !j["shards"].is_number_integer()) {
    std::fprintf(stderr, "refinery slurm: %s/slurm/job.json is damaged\n", run.c_str());
    return 1;
  }
  const int shards = j["shards"].get<int>();
  const std::string job_id = j.value("job_id", "");
  // What the queue says about each task: %K is the array index, %T the state.
  std::map<int, std::string> queued;
  if (!job_id.empty() && !base::find_on_path("squeue").empty()) {
    base::SpawnOptions o;
    o.argv = {base::find_on_path("squeue"), "-h", "-r", "-j", job_id, "-o", "%K %T"};
    o.env = environment();
    o.timeout_seconds = 30;
    if (auto r = base::run_process(o); r && r->exit_code == 0)
      for (const auto& line : base::split(r->out, '\n')) {
        auto parts = base::split(base::trim(line), ' ');
        if (parts.size() == 2 && !parts[0].empty() && parts[0].find_first_not_of("0123456789") == std::string::npos)
          queued[std::stoi(parts[0])] = parts[1];
      }
  }
  int done = 0, failed = 0, running = 0;
  for (int i = 0; i < shards; ++i) {
    std::string state;
    auto exit_text = base::read_file(run + "/slurm/" + std::to_string(i) + ".exit");
    if (auto q = queued.find(i); q != queued.end()) {
      state = q->second;
      for (char& c : state) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      ++running;
    } else if (exit_text && base::trim(*exit_text) == "0") {
      state = "done";
      ++done;
    } else if (exit_text) {
      state = "failed (exit " + base::trim(*exit_text) + "; " + run + "/slurm/" + std::to_string(i) + ".err)";
      ++failed;
    } else {
      state = "not running and never finished (lost or not started)";
      ++failed;
    }
    std::printf("shard %d: %s\n", i, state.c_str());
  }
  std::printf("%d of %d shards done, %d running or pending, %d failed or lost (job %s)\n", done, shards, running,
              failed, job_id.c_str());
  // 0: every shard done; 1: one failed or was lost; 2: the rest still queued or running.
  if (done == shards) return 0;
  return failed > 0 ? 1 : 2;
}

}  // namespace

int cmd_slurm(const std::vector<std::string>& argv) {
  std::vector<FlagSpec> flags = {{"shards", true, "how many tasks the campaign is split into (1 to 100000)"},
                                 {"partition", true, "the Slurm partition"},
                                 {"gpus-per-task", true, "GPUs each task asks for"},
                                 {"cpus-per-task", true, "CPUs each task asks for"},
                                 {"time", true, "each task's time limit, as sbatch takes it"},
                                 {"out", true, "run folder (default runs/<config name>)"},
                                 {"dry-run", false, "write the job script and print it; submit nothing"},
                                 {"status", false, "RUN: which shards are done, running or failed"}};
  auto usage = [&](const std::string& why) {
    std::fprintf(
        stderr,
        "refinery slurm: %s\nusage: refinery slurm CONFIG --shards N [flags]\n       refinery slurm --status RUN\n%s",
        why.c_str(), flags_help(flags).c_str());
    return 2;
  };
  auto args = parse_args(argv, flags);
  if (!args) return usage(args.error().message);
  if (args->positional.size() != 1) return usage("one CONFIG (or, with --status, one RUN) expected");
  if (args->has("status")) return status(args->positional[0]);
  auto shards = args->integer("shards", 0, 1, 100000);
  if (!shards) return usage(shards.error().message);
  if (*shards < 1) return usage("--shards N is required");
  const std::string config_path = fs::absolute(args->positional[0]).string();
  auto config = load_config(config_path);
  if (!config) {
    std::fprintf(stderr, "refinery slurm: %s\n", config.error().message.c_str());
    return 1;
  }
  const std::string run = fs::absolute(args->get("out", "runs/" + config->name)).lexically_normal().string();
  if (fs::exists(run + "/config.yaml")) {
    std::fprintf(stderr, "refinery slurm: %s holds a run of one process already; shards need a folder of their own\n",
                 run.c_str());
    return 1;
  }
  if (auto s = base::make_dirs(run + "/slurm", 0755); !s) {
    std::fprintf(stderr, "refinery slurm: %s\n", s.error().message.c_str());
    return 1;
  }
  const std::string refinery = fs::canonical("/proc/self/exe").string();
  const std::string script = job_script(config->name, refinery, config_path, run, static_cast<int>(*shards), *args);
  const std::string script_path = run + "/slurm/job.sh";
  if (auto s = base::write_file_atomic(script_path, script); !s) {
    std::fprintf(stderr, "refinery slurm: %s\n", s.error().message.c_str());
    return 1;
  }
  if (args->has("dry-run")) {
    std::printf("%s", script.c_str());
    std::printf("# written to %s; submit it with: sbatch %s\n", script_path.c_str(), script_path.c_str());
    return 0;
  }
  const std::string sbatch = base::find_on_path("sbatch");
  if (sbatch.empty()) {
    std::fprintf(stderr, "refinery slurm: no sbatch on PATH (the job script is %s)\n", script_path.c_str());
    return 1;
  }
  base::SpawnOptions o;
  o.argv = {sbatch, "--parsable", script_path};
  o.env = environment();  // the tasks need what the campaign needs: the models' API keys among it
  o.timeout_seconds = 120;
  auto r = base::run_process(o);
  if (!r || r->exit_code != 0) {
    std::fprintf(stderr, "refinery slurm: sbatch failed: %s\n",
                 r ? base::trim(r->err).c_str() : r.error().message.c_str());
    return 1;
  }
  const std::string job_id = base::split(base::trim(r->out), ';')[0];
  nlohmann::json job = {{"job_id", job_id}, {"shards", *shards}, {"config", config_path}, {"script", script_path}};
  if (auto s = base::write_file_atomic(run + "/slurm/job.json", job.dump(2) + "\n"); !s) {
    std::fprintf(stderr, "refinery slurm: %s\n", s.error().message.c_str());
    return 1;
  }
  std::printf("submitted job %s: %lld shards of %s into %s/shards\n", job_id.c_str(), static_cast<long long>(*shards),
              config->name.c_str(), run.c_str());
  std::printf("follow it with: refinery slurm --status %s; read it with: refinery report %s\n", run.c_str(),
              run.c_str());
  return 0;
}

}  // namespace agent
