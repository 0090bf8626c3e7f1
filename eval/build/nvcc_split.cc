#include "eval/build/nvcc_split.h"

#include <cctype>
#include <future>
#include <regex>

#include "base/fs.h"
#include "base/sha256.h"
#include "base/text.h"

namespace eval {
using base::Error;
using base::Result;

namespace {

std::string program_of(const std::string& command) {
  std::string first = command.substr(0, command.find(' '));
  if (!first.empty() && first.front() == '"') first = first.substr(1, first.find('"', 1) - 1);
  return first.substr(first.rfind('/') + 1);
}

base::SpawnOptions shell(const base::SpawnOptions& like, const NvccPlan& plan,
                         const std::vector<std::string>& commands) {
  // nvcc's assignments are not shell syntax (INCLUDES="-I..."  "-I..."): each
  // value is taken literally, as nvcc does, and exported.
  std::string script;
  for (const auto& e : plan.env) {
    auto eq = e.find('=');
    std::string value = e.substr(eq + 1), quoted = "'";
    for (char ch : value) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    script += "export " + e.substr(0, eq) + "=" + quoted + "'\n";
  }
  script += "set -e\n";
  // Removing an intermediate that a step did not leave is no failure.
  for (const auto& c : commands) script += (base::starts_with(c, "rm ") ? "rm -f " + c.substr(3) : c) + "\n";
  base::SpawnOptions o = like;
  o.argv = {"/bin/sh", "-c", script};
  return o;
}

}  // namespace

Result<NvccPlan> parse_nvcc_plan(const std::string& dryrun_stderr, const std::string& salt) {
  static const std::regex assignment(R"(^[A-Za-z_][A-Za-z0-9_]*=)");
  NvccPlan plan;
  std::vector<std::string> commands;
  for (const auto& line : base::split(dryrun_stderr, '\n')) {
    if (!base::starts_with(line, "#$ ")) continue;
    std::string body = line.substr(3);
    if (std::regex_search(body, assignment))
      plan.env.push_back(body);
    else
      commands.push_back(body);
  }
  size_t cicc = commands.size(), fatbinary = commands.size();
  for (size_t i = 0; i < commands.size(); ++i) {
    std::string p = program_of(commands[i]);
    if (p == "cicc" && cicc == commands.size()) cicc = i;
    if (p == "fatbinary" && cicc < i && fatbinary == commands.size()) fatbinary = i;
  }
  if (cicc == commands.size() || cicc < 2 || fatbinary == commands.size())
    return Error{"nvcc's plan has no cicc ... fatbinary branch"};
  size_t device_start = cicc - 1;  // the device branch's preprocessing
  plan.host.assign(commands.begin(), commands.begin() + device_start);
  plan.device.assign(commands.begin() + device_start, commands.begin() + fatbinary + 1);
  plan.rest.assign(commands.begin() + fatbinary + 1, commands.end());
  static const std::regex module_file(R"re( --gen_module_id_file --module_id_file_name "([^"]+)")re");
  static const std::regex source_name(R"re(--orig_src_file_name "([^"]+)")re");
  for (auto& c : plan.host) {
    std::smatch m;
    if (program_of(c) != "cudafe++" || !std::regex_search(c, m, module_file)) continue;
    plan.module_id_path = m[1];
    c = m.prefix().str() + " --module_id_file_name \"" + plan.module_id_path + "\"" + m.suffix().str();
    std::string name = "tu";
    if (std::regex_search(c, m, source_name)) name = m[1];
    std::string ident;
    for (char ch : name) ident += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
    std::string hash = base::sha256_hex(salt + "\n" + dryrun_stderr);
    // The shape cudafe++ gives it: _<hash>_<length of name>_<name>_<hash>.
    plan.module_id =
        "_" + hash.substr(0, 8) + "_" + std::to_string(name.size()) + "_" + ident + "_" + hash.substr(8, 8);
  }
  if (plan.module_id_path.empty() || plan.rest.empty())
    return Error{"nvcc's plan has no cudafe++ step that writes the module id"};
  return plan;
}

Result<base::ProcessResult> run_nvcc_split(base::ProcessSpawner& spawner, const base::SpawnOptions& nvcc,
                                           const std::string& salt, NvccSteps* steps) {
  NvccSteps ignored;
  if (!steps) steps = &ignored;
  steps->clear();
  base::SpawnOptions dry = nvcc;
  dry.argv.push_back("--dryrun");
  TRY_ASSIGN(base::ProcessResult planned, spawner.run(dry));
  auto plan = planned.exited_ok() ? parse_nvcc_plan(planned.err, salt) : Result<NvccPlan>(Error{"dryrun failed"});
  if (!plan || !base::write_file(plan->module_id_path, plan->module_id).ok()) {
    auto whole = spawner.run(nvcc);
    if (whole) steps->emplace_back("nvcc", whole->wall_seconds);
    return whole;
  }
  steps->emplace_back("plan", planned.wall_seconds);

  auto device_future = std::async(std::launch::async, [&] { return spawner.run(shell(nvcc, *plan, plan->device)); });
  auto host = spawner.run(shell(nvcc, *plan, plan->host));
  auto device = device_future.get();
  if (!host) return host.error();
  if (!device) return device.error();
  steps->emplace_back("host front end", host->wall_seconds);
  steps->emplace_back("device", device->wall_seconds);
  // As nvcc would report it: the host front end's diagnostics first.
  if (!host->exited_ok()) return host;
  if (!device->exited_ok()) {
    device->err = host->err + device->err;
    return device;
  }
  TRY_ASSIGN(base::ProcessResult rest, spawner.run(shell(nvcc, *plan, plan->rest)));
  steps->emplace_back("host compile and link", rest.wall_seconds);
  rest.out = host->out + device->out + rest.out;
  rest.err = host->err + device->err + rest.err;
  rest.wall_seconds += std::max(host->wall_seconds, device->wall_seconds) + planned.wall_seconds;
  return rest;
}

}  // namespace eval
