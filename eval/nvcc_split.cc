#include "eval/nvcc_split.h"

#include <cctype>
#include <future>
#include <mutex>
#include <optional>
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

// The real fatbinary C file's data block: the lines from `asm(` to the `");`
// that closes it, as [begin, end).
std::optional<std::pair<size_t, size_t>> data_block(const std::string& f) {
  size_t begin = f.rfind("asm(\n", 0) == 0 ? 0 : f.find("\nasm(\n");
  if (begin == std::string::npos) return std::nullopt;
  if (begin != 0) ++begin;
  size_t end = f.find("\");\n", begin);
  if (end == std::string::npos) return std::nullopt;
  return std::pair{begin, end + 4};
}

// What CUDA 13.0's fatbinary writes around its data, the size of the data
// left out (`fatbinData[]`): the stand-in until a real file says otherwise.
constexpr const char* kStandIn13 = R"(#ifndef __SKIP_INTERNAL_FATBINARY_HEADERS
#include "fatbinary_section.h"
#endif
#define __CUDAFATBINSECTION  ".nvFatBinSegment"
#define __CUDAFATBINDATASECTION  ".nv_fatbin"
#ifdef __cplusplus
extern "C" {
#endif
extern const unsigned long long fatbinData[];
#ifdef __cplusplus
}
#endif
#ifdef __cplusplus
extern "C" {
#endif
static const __fatBinC_Wrapper_t __fatDeviceText __attribute__ ((aligned (8))) __attribute__ ((section (__CUDAFATBINSECTION)))= 
	{ 0x466243b1, 1, fatbinData, 0 };
#ifdef __cplusplus
}
#endif
)";

// The real file less its data block, with the data's size left out; empty
// when it has no data block.
std::string without_data(const std::string& real) {
  auto block = data_block(real);
  if (!block) return "";
  static const std::regex sized(R"(fatbinData\[\d+\])");
  return std::regex_replace(real.substr(0, block->first) + real.substr(block->second), sized, "fatbinData[]");
}

std::mutex stand_in_mutex;
std::string& learned_stand_in() {
  static std::string s = kStandIn13;
  return s;
}

// `-o "PATH"` or `-o PATH` of a command.
std::string output_of(const std::string& command) {
  static const std::regex out(R"re( -o (?:"([^"]+)"|(\S+)))re");
  std::smatch m;
  if (!std::regex_search(command, m, out)) return "";
  return m[1].matched ? m[1].str() : m[2].str();
}

std::string quoted(const std::string& path) { return "\"" + path + "\""; }

}  // namespace

std::string fatbin_stand_in() {
  std::lock_guard<std::mutex> lock(stand_in_mutex);
  return learned_stand_in();
}

void set_fatbin_stand_in(const std::string& stand_in) {
  std::lock_guard<std::mutex> lock(stand_in_mutex);
  learned_stand_in() = stand_in;
}

bool fatbin_matches_stand_in(const std::string& real_fatbin_c, const std::string& stand_in) {
  const std::string rest = without_data(real_fatbin_c);
  return !rest.empty() && rest == stand_in;
}

Result<std::string> fatbin_data_source(const std::string& real_fatbin_c) {
  auto block = data_block(real_fatbin_c);
  if (!block) return Error{"the fatbinary's C file has no asm(...) data block"};
  // A symbol of its own file, as nvcc makes it, but seen by the host object
  // it is joined to; hidden, so that it stays inside the candidate's library.
  return std::string("asm(\".globl fatbinData\\n.hidden fatbinData\\n\");\n") +
         real_fatbin_c.substr(block->first, block->second - block->first);
}

Result<NvccPlan> parse_nvcc_plan(const std::string& dryrun_stderr, const std::string& salt) {
  static const std::regex assignment(R"(^[A-Za-z_][A-Za-z0-9_]*=)");
  NvccPlan plan;
  std::vector<std::string> commands;
  for (const auto& line : base::split(dryrun_stderr, '\n')) {
    if (!base::starts_with(line, "#$ ")) continue;
    std::string body = line.substr(3);
    if (std::regex_search(body, assignment)) plan.env.push_back(body);
    else commands.push_back(body);
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
    plan.module_id = "_" + hash.substr(0, 8) + "_" + std::to_string(name.size()) + "_" + ident + "_" +
                     hash.substr(8, 8);
  }
  if (plan.module_id_path.empty() || plan.rest.empty())
    return Error{"nvcc's plan has no cudafe++ step that writes the module id"};
  // The host compile of cudafe++'s output, to run beside the device branch.
  static const std::regex embedded(R"re(--embedded-fatbin="([^"]+)")re");
  std::smatch fm;
  if (std::regex_search(plan.device.back(), fm, embedded)) {
    for (size_t i = 0; i < plan.rest.size(); ++i) {
      const std::string& c = plan.rest[i];
      if (c.find(" -c ") == std::string::npos || c.find(".cudafe1.cpp") == std::string::npos) continue;
      std::string object = output_of(c);
      if (object.empty()) break;
      plan.fatbin_c = fm[1];
      plan.host_compile = c;
      plan.host_object = object;
      plan.rest.erase(plan.rest.begin() + static_cast<std::ptrdiff_t>(i));
      // The device branch writes the real file beside the stand-in.
      std::string& fatbinary = plan.device.back();
      fatbinary.replace(fm.position(1), fm.length(1), plan.fatbin_c + ".device.c");
      break;
    }
  }
  return plan;
}

Result<base::ProcessResult> run_nvcc_split(base::ProcessRunner& runner, const base::SpawnOptions& nvcc,
                                           const std::string& salt, NvccSteps* steps) {
  NvccSteps ignored;
  if (!steps) steps = &ignored;
  steps->clear();
  base::SpawnOptions dry = nvcc;
  dry.argv.push_back("--dryrun");
  TRY_ASSIGN(base::ProcessResult planned, runner.run(dry));
  auto plan = planned.exited_ok() ? parse_nvcc_plan(planned.err, salt) : Result<NvccPlan>(Error{"dryrun failed"});
  if (!plan || !base::write_file(plan->module_id_path, plan->module_id).ok()) {
    auto whole = runner.run(nvcc);
    if (whole) steps->emplace_back("nvcc", whole->wall_seconds);
    return whole;
  }
  steps->emplace_back("plan", planned.wall_seconds);
  const bool beside = !plan->host_compile.empty();
  std::string stand_in;
  if (beside) {
    stand_in = fatbin_stand_in();
    if (!base::write_file(plan->fatbin_c, stand_in).ok()) return Error{"cannot write " + plan->fatbin_c};
  }

  // The host front end, then (beside) the host compile on the stand-in.
  struct {
    Result<base::ProcessResult> front{Error{"not run"}};
    std::optional<Result<base::ProcessResult>> compile;
  } host;
  auto device_future = std::async(std::launch::async, [&] { return runner.run(shell(nvcc, *plan, plan->device)); });
  host.front = runner.run(shell(nvcc, *plan, plan->host));
  if (beside && host.front && host.front->exited_ok()) host.compile = runner.run(shell(nvcc, *plan, {plan->host_compile}));
  auto device = device_future.get();
  if (!host.front) return host.front.error();
  if (!device) return device.error();
  steps->emplace_back("host front end", host.front->wall_seconds);
  steps->emplace_back("device", device->wall_seconds);
  // As nvcc would report it: the host front end's diagnostics, the device
  // branch's, then the host compile's.
  if (!host.front->exited_ok()) return host.front;
  if (!device->exited_ok()) {
    device->err = host.front->err + device->err;
    return device;
  }
  std::string out = host.front->out + device->out, err = host.front->err + device->err;
  double critical = std::max(host.front->wall_seconds, device->wall_seconds);
  std::vector<std::string> after = plan->rest;
  if (beside) {
    if (!*host.compile) return host.compile->error();
    auto real = base::read_file(plan->fatbin_c + ".device.c");
    if (!real) return real.error();
    steps->emplace_back("host compile", (*host.compile)->wall_seconds);
    critical = std::max(host.front->wall_seconds + (*host.compile)->wall_seconds, device->wall_seconds);
    out += (*host.compile)->out;
    err += (*host.compile)->err;
    if (!fatbin_matches_stand_in(*real, stand_in)) {
      // Another fatbinary than the stand-in (learnt for the next compile):
      // the host compile again, as nvcc runs it, on the real file.
      if (std::string learnt = without_data(*real); !learnt.empty()) {
        std::lock_guard<std::mutex> lock(stand_in_mutex);
        learned_stand_in() = learnt;
      }
      if (!base::write_file(plan->fatbin_c, *real).ok()) return Error{"cannot write " + plan->fatbin_c};
      TRY_ASSIGN(base::ProcessResult again, runner.run(shell(nvcc, *plan, {plan->host_compile})));
      steps->emplace_back("host compile again", again.wall_seconds);
      critical += again.wall_seconds;
      out = host.front->out + device->out + again.out;
      err = host.front->err + device->err + again.err;
      if (!again.exited_ok()) {
        again.out = out;
        again.err = err;
        again.wall_seconds = critical + planned.wall_seconds;
        return again;
      }
    } else if (!(*host.compile)->exited_ok()) {
      base::ProcessResult failed = std::move(**host.compile);
      failed.out = out;
      failed.err = err;
      failed.wall_seconds = critical + planned.wall_seconds;
      return failed;
    } else {
      // The data, assembled on its own and joined to the host object.
      TRY_ASSIGN(std::string data, fatbin_data_source(*real));
      const std::string data_c = plan->fatbin_c + ".data.c", data_o = plan->fatbin_c + ".data.o";
      if (!base::write_file(data_c, data).ok()) return Error{"cannot write " + data_c};
      const std::string cc = plan->host_compile.substr(0, plan->host_compile.find(' '));
      const std::string joined = plan->host_object + ".joined.o";
      after.insert(after.begin(), {cc + " -c -x c -fPIC " + quoted(data_c) + " -o " + quoted(data_o),
                                   cc + " -r -nostdlib -o " + quoted(joined) + " " + quoted(plan->host_object) + " " +
                                       quoted(data_o),
                                   "mv -f " + quoted(joined) + " " + quoted(plan->host_object)});
    }
  }
  TRY_ASSIGN(base::ProcessResult rest, runner.run(shell(nvcc, *plan, after)));
  steps->emplace_back(beside ? "link" : "host compile and link", rest.wall_seconds);
  rest.out = out + rest.out;
  rest.err = err + rest.err;
  rest.wall_seconds += critical + planned.wall_seconds;
  return rest;
}

}  // namespace eval
