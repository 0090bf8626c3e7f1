#include "eval/build/lean_headers.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <regex>
#include <set>

#include "base/fs.h"
#include "base/text.h"

namespace eval {
namespace fs = std::filesystem;

namespace {

// The headers a lean compile replaces; anything else under torch/ pulls in
// the full C++ API and is left alone.
const std::set<std::string> kUmbrellas = {"torch/torch.h", "torch/extension.h", "torch/all.h",
                                          "torch/types.h", "torch/python.h",    "ATen/ATen.h"};

// torch:: names that are not at::'s under another name: a namespace or class
// of the C++ API, or a function whose at:: namesake differs (torch::tensor
// infers its dtype from C++ literals; torch::cuda is not at::cuda).
const std::set<std::string> kTorchOwn = {"tensor",      "cuda",         "nn",          "autograd", "jit", "optim",
                                         "data",        "serialize",    "nested",      "special",  "fft", "linalg",
                                         "sparse",      "utils",        "library",     "Library",  "mps", "xpu",
                                         "NoGradGuard", "AutoGradMode", "manual_seed", "stable"};

// The source without comments and string literals, so that what they say
// decides nothing.
std::string code_only(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t end = s.find("*/", i + 2);
      i = end == std::string::npos ? s.size() : end + 2;
      out += ' ';
    } else if (s[i] == '"' && !(i > 0 && s[i - 1] == '\'')) {
      // A literal becomes "", but the path of an #include "..." is kept.
      size_t j = i + 1;
      while (j < s.size() && s[j] != '"' && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      size_t line = out.rfind('\n') + 1;  // npos + 1 == 0
      bool directive =
          out.find_first_not_of(" \t", line) != std::string::npos && out[out.find_first_not_of(" \t", line)] == '#';
      out += directive ? s.substr(i, std::min(j + 1, s.size()) - i) : "\"\"";
      i = j + 1;
    } else {
      out += s[i++];
    }
  }
  return out;
}

std::set<std::string> identifiers(const std::string& text) {
  std::set<std::string> ids;
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isalpha(c) || c == '_') {
      size_t j = i + 1;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      ids.insert(text.substr(i, j - i));
      i = j;
    } else if (std::isdigit(c)) {
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '.'))
        ++i;
    } else {
      ++i;
    }
  }
  return ids;
}

// What LibTorch's install holds that a plan reads: the operator names with
// their own header, Functions.h, and types.h's torch namespace. Read once per
// set of include folders.
struct Install {
  bool ok = false;
  std::string why_not;
  std::set<std::string> ops;
  std::string functions_h;                // the installed ATen/Functions.h
  std::set<std::string> functions_calls;  // operators its own inline functions call
  std::string torch_namespace;            // the using-declarations and constants of torch/types.h
  std::vector<std::string> dirs;
  // Per LibTorch header read so far: the at:: operators it names, and the
  // headers it includes (resolved paths).
  struct Header {
    std::set<std::string> ops;
    std::vector<std::string> includes;
  };
  std::map<std::string, Header> headers;
  // Operators a lean compile found missing in LibTorch's own headers
  // (learn_lean_ops), kept in every later plan.
  std::set<std::string> learned;
};

std::string find_header(const std::vector<std::string>& dirs, const std::string& rel) {
  for (const auto& d : dirs) {
    std::error_code ec;
    if (fs::is_regular_file(fs::path(d) / rel, ec)) return (fs::path(d) / rel).string();
  }
  return "";
}

// `namespace torch { ... }` of torch/types.h, reduced to its using-declarations
// and constexpr constants, each a one-line statement.
std::string torch_namespace_of(const std::string& types_h) {
  std::string code = code_only(types_h);
  size_t open = code.find("namespace torch {");
  if (open == std::string::npos) return "";
  size_t close = code.find('}', open);
  if (close == std::string::npos) return "";
  std::string body = code.substr(open + 17, close - open - 17), out;
  for (const auto& piece : base::split(body, ';')) {
    std::string stmt = base::trim(piece);
    for (char& c : stmt)
      if (c == '\n') c = ' ';
    if (base::starts_with(stmt, "using ") || base::starts_with(stmt, "constexpr auto ")) out += stmt + ";\n";
  }
  return out;
}

// The operator whose header declares `name`: at::view_copy_symint and
// at::add_out are view_copy's and add's.
std::string op_of(const Install& in, const std::string& name) {
  if (in.ops.count(name)) return name;
  for (const char* suffix : {"_symint_outf", "_symint_out", "_outf", "_out", "_symint"})
    if (base::ends_with(name, suffix)) {
      std::string op = name.substr(0, name.size() - std::strlen(suffix));
      if (in.ops.count(op)) return op;
    }
  return "";
}

std::mutex install_mutex;  // guards every Install

Install& install_of(const std::vector<std::string>& dirs) {
  static std::map<std::vector<std::string>, Install> cache;
  auto found = cache.find(dirs);
  if (found != cache.end()) return found->second;
  Install& in = cache[dirs];
  in.dirs = dirs;
  std::string functions = find_header(dirs, "ATen/Functions.h");
  std::string types = find_header(dirs, "torch/types.h");
  if (types.empty()) types = find_header(dirs, "torch/csrc/api/include/torch/types.h");
  if (functions.empty() || types.empty()) {
    in.why_not = "LibTorch's ATen/Functions.h or torch/types.h was not found";
    return in;
  }
  auto f = base::read_file(functions);
  static const std::regex op_include(R"re(#include <ATen/ops/(\w+)\.h>)re");
  if (f)
    for (std::sregex_iterator it(f->begin(), f->end(), op_include), end; it != end; ++it) in.ops.insert((*it)[1]);
  auto t = base::read_file(types);
  if (in.ops.empty() || !f || !t) {
    in.why_not = "LibTorch has no per-operator headers (ATen/ops)";
    return in;
  }
  in.functions_h = *f;
  in.torch_namespace = torch_namespace_of(*t);
  if (in.torch_namespace.find("using namespace at") == std::string::npos) {
    in.why_not = "LibTorch's torch/types.h has no `namespace torch { using namespace at; }`";
    return in;
  }
  std::string rest;
  for (const auto& line : base::split(*f, '\n'))
    if (!base::starts_with(line, "#include <ATen/ops/")) rest += line + "\n";
  for (const auto& id : identifiers(code_only(rest)))
    if (std::string op = op_of(in, id); !op.empty()) in.functions_calls.insert(op);
  in.ok = true;
  return in;
}

const std::regex& include_regex() {
  static const std::regex re(R"re(#\s*include\s*([<"])([^>"]+)[>"])re");
  return re;
}

// The resolved path of an include written in `from` (a file's path, or empty
// for the candidate), or empty when it is not LibTorch's (the C++ library,
// CUDA's own headers).
std::string resolve(const Install& in, const std::string& from, bool quoted, const std::string& rel) {
  std::error_code ec;
  if (quoted && !from.empty()) {
    fs::path p = fs::path(from).parent_path() / rel;
    if (fs::is_regular_file(p, ec)) return p.lexically_normal().string();
  }
  return find_header(in.dirs, rel);
}

// Adds the operators named as at::X by `path` and everything it includes
// (but ATen/ops and Functions.h, which are the lean set itself).
void ops_under(Install& in, const std::string& path, std::set<std::string>& visited, std::set<std::string>& ops) {
  if (path.empty() || !visited.insert(path).second) return;
  if (path.find("/ATen/ops/") != std::string::npos || base::ends_with(path, "/ATen/Functions.h")) return;
  auto memo = in.headers.find(path);
  if (memo == in.headers.end()) {
    Install::Header h;
    auto text = base::read_file(path);
    std::string code = text ? code_only(*text) : "";
    // Every part of a qualified name: at::symint::view_copy, at::_ops::add::call.
    static const std::regex qualified(R"(\bat(?:\s*::\s*[A-Za-z_]\w*)+)");
    static const std::regex part(R"([A-Za-z_]\w*)");
    for (std::sregex_iterator it(code.begin(), code.end(), qualified), end; it != end; ++it) {
      const std::string name = (*it)[0];
      for (std::sregex_iterator p(name.begin() + 2, name.end(), part), pend; p != pend; ++p)
        if (std::string op = op_of(in, (*p)[0]); !op.empty()) h.ops.insert(op);
    }
    for (std::sregex_iterator it(code.begin(), code.end(), include_regex()), end; it != end; ++it)
      h.includes.push_back(resolve(in, path, (*it)[1] == "\"", (*it)[2]));
    memo = in.headers.emplace(path, std::move(h)).first;
  }
  ops.insert(memo->second.ops.begin(), memo->second.ops.end());
  for (const auto& inc : memo->second.includes) ops_under(in, inc, visited, ops);
}

constexpr const char* kTorchLean = R"(// refinery's lean <torch/torch.h>: ATen with only the operators this source
// names, and torch:: as LibTorch's torch/types.h defines it (see
// eval/build/lean_headers.h). If this does not compile, refinery compiles the
// source again with LibTorch's own <torch/torch.h>.
#pragma once
#include <ATen/ATen.h>
#include <c10/util/Optional.h>
#include <optional>
namespace torch {
)";

}  // namespace

namespace {

// What the source alone decides: use (with its includes other than the
// umbrella ones), or why not.
LeanPlan screen(const std::string& code, std::vector<std::string>& includes) {
  LeanPlan plan;
  bool umbrella = false;
  std::string other;
  for (std::sregex_iterator it(code.begin(), code.end(), include_regex()), end; it != end; ++it) {
    std::string path = (*it)[2];
    if (kUmbrellas.count(path))
      umbrella = true;
    else if (base::starts_with(path, "torch/") && other.empty())
      other = path;
    else
      includes.push_back(path);
  }
  if (!umbrella) return plan;
  auto refuse = [&](std::string why) {
    plan.why_not = std::move(why);
    return plan;
  };
  if (!other.empty()) return refuse("includes <" + other + ">");
  static const std::regex using_torch(R"(\busing\s+namespace\s+torch\b)");
  if (std::regex_search(code, using_torch)) return refuse("has `using namespace torch`");
  if (code.find("requires_grad") != std::string::npos) return refuse("uses requires_grad");
  static const std::regex torch_name(R"(\btorch\s*::\s*([A-Za-z_]\w*))");
  for (std::sregex_iterator it(code.begin(), code.end(), torch_name), end; it != end; ++it)
    if (kTorchOwn.count((*it)[1])) return refuse("uses torch::" + (*it)[1].str());
  plan.use = true;
  return plan;
}

}  // namespace

bool names_cuda_helpers(const std::string& code) {
  // at::cuda::, c10::cuda::, `using namespace at::cuda`, cuda::std.
  static const std::regex cuda_namespace(R"(::\s*cuda\b|\bcuda\s*::)");
  if (std::regex_search(code, cuda_namespace)) return true;
  for (const auto& id : identifiers(code)) {
    if (base::starts_with(id, "__") || id == "CHECK_CUDA") continue;  // nvcc's own macros; extension.h's own
    if (id.find("CUDA") != std::string::npos) return true;  // CUDAGuard, getCurrentCUDAStream, C10_CUDA_CHECK...
    std::string lower;
    for (char c : id.substr(0, 8)) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* library : {"cublas", "cusparse", "cusolver", "curand", "cufft", "cudnn", "nvrtc"})
      if (base::starts_with(lower, library)) return true;
  }
  return false;
}

LeanPlan screen_lean_headers(const std::string& source) {
  std::vector<std::string> includes;
  return screen(code_only(source), includes);
}

LeanPlan plan_lean_headers(const std::string& source, const std::vector<std::string>& torch_includes) {
  const std::string code = code_only(source);
  std::vector<std::string> includes;
  LeanPlan plan = screen(code, includes);
  if (!plan.use) return plan;
  plan.use = false;
  auto refuse = [&](std::string why) {
    plan.why_not = std::move(why);
    return plan;
  };
  std::lock_guard<std::mutex> lock(install_mutex);
  Install& in = install_of(torch_includes);
  if (!in.ok) return refuse(in.why_not);
  std::set<std::string> ops = in.functions_calls;
  ops.insert(in.learned.begin(), in.learned.end());
  for (const auto& id : identifiers(code))
    if (std::string op = op_of(in, id); !op.empty()) ops.insert(op);
  // What LibTorch's own headers call: those of ATen.h, of refinery's
  // <torch/extension.h> (its CUDA helpers where the source names them) and of
  // the source's other includes.
  plan.cuda_helpers = names_cuda_helpers(code);
  std::set<std::string> visited;
  std::vector<std::string> roots = {"ATen/ATen.h"};
  if (plan.cuda_helpers)
    roots.insert(roots.end(), {"ATen/cuda/CUDAContext.h", "c10/cuda/CUDAException.h", "c10/cuda/CUDAGuard.h",
                               "c10/cuda/CUDAStream.h"});
  for (const auto& root : roots) ops_under(in, find_header(in.dirs, root), visited, ops);
  for (const auto& inc : includes) ops_under(in, find_header(in.dirs, inc), visited, ops);
  plan.ops.assign(ops.begin(), ops.end());

  std::string functions;
  for (const auto& line : base::split(in.functions_h, '\n')) {
    if (base::starts_with(line, "#include <ATen/ops/")) {
      std::string op = line.substr(19, line.find(".h>") == std::string::npos ? 0 : line.find(".h>") - 19);
      if (!ops.count(op)) continue;
    }
    functions += line + "\n";
  }
  std::string torch_h = std::string(kTorchLean) + in.torch_namespace + "}  // namespace torch\n";
  plan.files = {{"ATen/Functions.h", "// refinery: LibTorch's ATen/Functions.h with " + std::to_string(ops.size()) +
                                         " of its operators (see eval/build/lean_headers.h)\n" + functions},
                {"torch/torch.h", torch_h},
                {"torch/types.h", torch_h},
                {"torch/all.h", torch_h}};
  if (!plan.cuda_helpers)
    plan.files.push_back({"refinery/cuda_helpers.h",
                          "// refinery: the source names none of <torch/extension.h>'s CUDA helpers (see "
                          "eval/build/lean_headers.h)\n#pragma once\n"});
  plan.use = true;
  return plan;
}

bool learn_lean_ops(const std::string& log, const std::string& source_dir,
                    const std::vector<std::string>& torch_includes) {
  // nvcc's front ends: `FILE(LINE): error: namespace "at::symint" has no
  // member "view_copy"` or `FILE(LINE): error: identifier "scalar_tensor" is undefined`.
  static const std::regex error_line(R"re(^(.*)\(\d+\): error: (.*)$)re");
  static const std::regex missing(R"re(^(?:namespace "at(?:::\w+)*" has no member|identifier) "(\w+)")re");
  std::lock_guard<std::mutex> lock(install_mutex);
  Install& in = install_of(torch_includes);
  if (!in.ok) return false;
  std::set<std::string> found;
  int errors = 0;
  for (const auto& line : base::split(log, '\n')) {
    std::smatch e, m;
    if (line.find("error") == std::string::npos || line.find(" detected in the compilation of ") != std::string::npos ||
        base::starts_with(line, "# --error"))
      continue;
    ++errors;
    if (!std::regex_match(line, e, error_line)) return false;
    const std::string file = e[1], what = e[2];
    if (base::starts_with(file, source_dir) || file.find('/') == std::string::npos) return false;  // the source's own
    if (!std::regex_search(what, m, missing)) return false;
    std::string op = op_of(in, m[1]);
    if (op.empty() || in.learned.count(op)) return false;
    found.insert(op);
  }
  if (errors == 0 || found.empty()) return false;
  in.learned.insert(found.begin(), found.end());
  return true;
}

}  // namespace eval
