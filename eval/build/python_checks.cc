// The static checks' rules for a Python module (static_checks.h:
// scan_python). Lexical, as the C family's are: comments dropped, string
// literals kept apart, dotted names found with whether they are called or
// assigned to. An alias (`import os as o`) or a name built at run time gets
// past them; the sandbox and the runtime checks are what bind.
#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>

#include "eval/build/static_checks.h"

namespace eval {
namespace {

struct Literal {
  size_t pos;  // of its first character of content
  std::string text;
};

// The module with comments and the contents of string literals blanked
// (newlines kept), and the literals.
std::string blank_python(const std::string& src, std::vector<Literal>& literals) {
  std::string code = src;
  size_t i = 0;
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < code.size(); ++k)
      if (code[k] != '\n') code[k] = ' ';
  };
  while (i < src.size()) {
    char c = src[i];
    if (c == '#') {
      size_t end = src.find('\n', i);
      if (end == std::string::npos) end = src.size();
      blank(i, end);
      i = end;
      continue;
    }
    if (c != '\'' && c != '"') {
      ++i;
      continue;
    }
    // A prefix (r, b, f, u, rb ...) is an identifier's letters before the quote: left as they are.
    const bool raw = i > 0 && (src[i - 1] == 'r' || src[i - 1] == 'R' ||
                               (i > 1 && (src[i - 2] == 'r' || src[i - 2] == 'R') && std::isalpha(src[i - 1])));
    const bool triple = src.compare(i, 3, std::string(3, c)) == 0;
    const std::string close = triple ? std::string(3, c) : std::string(1, c);
    size_t start = i + close.size(), k = start;
    while (k < src.size()) {
      if (src[k] == '\\' && !raw) {
        k += 2;
        continue;
      }
      if (src.compare(k, close.size(), close) == 0) break;
      if (!triple && src[k] == '\n') break;  // unterminated: the line ends it
      ++k;
    }
    literals.push_back({start, src.substr(start, std::min(k, src.size()) - start)});
    blank(start, k);
    i = std::min(src.size(), k + close.size());
  }
  return code;
}

struct Name {
  size_t pos;
  std::string dotted;  // "os.environ", "torch.cuda.Event"
  bool call = false;
  bool assigned = false;  // the target of `=` (not `==`), `+=` ...
};

std::vector<Name> dotted_names(const std::string& code) {
  std::vector<Name> out;
  size_t i = 0;
  auto ident_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  while (i < code.size()) {
    if (!ident_start(code[i]) || (i > 0 && (ident(code[i - 1]) || code[i - 1] == '.'))) {
      ++i;
      continue;
    }
    Name n{i, "", false, false};
    size_t k = i;
    for (;;) {
      size_t s = k;
      while (k < code.size() && ident(code[k])) ++k;
      n.dotted += code.substr(s, k - s);
      size_t j = k;
      while (j < code.size() && (code[j] == ' ' || code[j] == '\t')) ++j;
      if (j < code.size() && code[j] == '.' && j + 1 < code.size()) {
        size_t m = j + 1;
        while (m < code.size() && (code[m] == ' ' || code[m] == '\t')) ++m;
        if (m < code.size() && ident_start(code[m])) {
          n.dotted += ".";
          k = m;
          continue;
        }
      }
      k = j;
      break;
    }
    if (k < code.size()) {
      n.call = code[k] == '(';
      n.assigned =
          (code[k] == '=' && (k + 1 >= code.size() || code[k + 1] != '=')) ||
          (k + 1 < code.size() && code[k + 1] == '=' && std::string("+-*/|&^%@").find(code[k]) != std::string::npos);
    }
    out.push_back(n);
    i = k;
  }
  return out;
}

bool is(const std::string& name, std::string_view prefix) {
  return name == prefix ||
         (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 && name[prefix.size()] == '.');
}

bool any_of(const std::string& name, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return is(name, p); });
}

// The rule a dotted name breaks, if any.
std::optional<Rule> classify(const Name& n) {
  const std::string& d = n.dotted;
  const std::string last = d.substr(d.rfind('.') == std::string::npos ? 0 : d.rfind('.') + 1);
  if (is(d, "torch.backends")) return n.assigned || n.call ? std::optional<Rule>(Rule::precision) : std::nullopt;
  if (n.assigned &&
      any_of(d, {"torch", "time", "sys", "builtins", "__builtins__", "os", "gc", "inspect", "linecache", "importlib",
                 "traceback", "triton", "refinery_prelude"}) &&
      d.find('.') != std::string::npos)
    return Rule::patching;
  if (n.assigned && (last == "__code__" || last == "__globals__")) return Rule::patching;
  if (n.call && (d == "setattr" || d == "delattr")) return Rule::patching;
  if (any_of(d, {"sys.settrace", "sys.setprofile", "sys.modules", "threading.settrace", "sys.addaudithook"}))
    return Rule::patching;
  if (any_of(d, {"subprocess", "multiprocessing", "pty", "os.system", "os.popen", "os.fork", "os.forkpty", "os.kill",
                 "os.killpg", "os.posix_spawn", "os.posix_spawnp", "os.wait", "os.waitpid"}) ||
      (is(d, "os") && (last.rfind("exec", 0) == 0 || last.rfind("spawn", 0) == 0)))
    return Rule::processes;
  if (any_of(d, {"os.environ", "os.environb", "os.getenv", "os.getenvb", "os.putenv", "os.unsetenv"}))
    return Rule::environment;
  if (any_of(d, {"signal", "faulthandler", "atexit"})) return Rule::signals;
  if (any_of(d, {"ctypes", "cffi", "importlib", "__import__", "torch.ops.load_library", "mmap", "marshal", "pickle"}) ||
      (n.call && (d == "exec" || d == "eval" || d == "compile")))
    return Rule::dynamic_loading;
  if (any_of(d, {"shutil",     "tempfile",   "pathlib",   "io.open",     "os.open",   "os.write",
                 "os.remove",  "os.unlink",  "os.rename", "os.replace",  "os.mkdir",  "os.makedirs",
                 "os.symlink", "os.link",    "os.chmod",  "os.truncate", "os.fdopen", "os.dup2",
                 "os.listdir", "os.scandir", "os.walk",   "socket"}) ||
      (n.call && d == "open"))
    return Rule::file_writes;
  if (any_of(d, {"threading", "_thread", "concurrent", "asyncio"})) return Rule::threads;
  if (any_of(d, {"time.time", "time.perf_counter", "time.monotonic", "time.process_time", "time.thread_time",
                 "time.time_ns", "time.perf_counter_ns", "time.monotonic_ns", "time.clock_gettime", "torch.cuda.Event",
                 "timeit", "datetime"}))
    return Rule::timers;
  if (any_of(d, {"torch.cuda.Stream", "torch.cuda.stream", "torch.cuda.ExternalStream", "torch.cuda.set_stream"}))
    return Rule::streams;
  if (last == "allow_tf32" || last == "set_float32_matmul_precision" ||
      last == "allow_fp16_reduced_precision_reduction" || last == "allow_bf16_reduced_precision_reduction")
    return Rule::precision;
  return std::nullopt;
}

// The names an `import` statement brings in, as dotted names at their place:
// `import os.path, subprocess`, `from os import environ` (as "os.environ").
std::vector<Name> imports(const std::string& code) {
  std::vector<Name> out;
  size_t line_start = 0;
  while (line_start < code.size()) {
    size_t end = code.find('\n', line_start);
    if (end == std::string::npos) end = code.size();
    std::string line = code.substr(line_start, end - line_start);
    size_t s = line.find_first_not_of(" \t");
    if (s != std::string::npos) {
      std::string body = line.substr(s);
      auto words = [](const std::string& t) {
        std::vector<std::string> w;
        std::string cur;
        for (char c : t + " ") {
          if (c == ' ' || c == ',' || c == '\t' || c == '(' || c == ')') {
            if (!cur.empty()) w.push_back(cur);
            cur.clear();
          } else {
            cur += c;
          }
        }
        return w;
      };
      if (body.rfind("import ", 0) == 0) {
        auto w = words(body.substr(7));
        for (size_t k = 0; k < w.size(); ++k) {
          if (w[k] == "as")
            ++k;
          else
            out.push_back({line_start + s, w[k]});
        }
      } else if (body.rfind("from ", 0) == 0) {
        auto w = words(body.substr(5));
        if (w.size() >= 3 && w[1] == "import") {
          for (size_t k = 2; k < w.size(); ++k) {
            if (w[k] == "as")
              ++k;
            else
              out.push_back({line_start + s, w[0] + "." + w[k]});
          }
        }
      }
    }
    line_start = end + 1;
  }
  return out;
}

int line_of(const std::string& text, size_t pos) {
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(std::min(pos, text.size())), '\n'));
}

// Whether a literal holds C++ or CUDA source (what load_inline compiles).
bool c_family_source(const std::string& text) {
  for (std::string_view mark : {"#include", "__global__", "torch::", "at::Tensor", "__device__", "extern \"C\""})
    if (text.find(mark) != std::string::npos) return true;
  return false;
}

}  // namespace

std::vector<Finding> scan_python(const std::string& source, const StaticPolicy& policy) {
  std::vector<Literal> literals;
  const std::string code = blank_python(source, literals);
  std::vector<std::tuple<int, Rule, std::string>> hits;
  auto add = [&](const Name& n) {
    if (auto rule = classify(n)) hits.emplace_back(line_of(source, n.pos), *rule, n.dotted);
  };
  for (const Name& n : dotted_names(code)) add(n);
  for (const Name& n : imports(code)) add(n);
  for (const Literal& l : literals) {
    for (std::string_view dir : {"/proc", "/sys/", "/dev/"})
      if (l.text.find(dir) != std::string::npos)
        hits.emplace_back(line_of(source, l.pos), Rule::proc_files, "\"" + std::string(dir) + "...\"");
    if (!c_family_source(l.text)) continue;
    // The inline source's own findings, at their lines in the module.
    const int first = line_of(source, l.pos);
    for (const Finding& f : scan_source(l.text, policy)) hits.emplace_back(first + f.line - 1, f.rule, f.what);
  }
  std::sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  std::vector<Finding> out;
  std::set<std::pair<int, int>> seen;  // one finding per rule and line
  for (auto& [line, rule, what] : hits) {
    RuleAction action = policy.action(rule);
    if (action == RuleAction::off) continue;
    if (!seen.insert({static_cast<int>(rule), line}).second) continue;
    out.push_back({rule, action, line, what, rule_why(rule)});
  }
  return out;
}

}  // namespace eval
