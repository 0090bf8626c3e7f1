#include "eval/problems/problem_index.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>

#include "base/fs.h"
#include "base/text.h"
#include "build_info.h"

namespace eval {
namespace fs = std::filesystem;
using base::Error;
using base::Result;

std::string default_problems_root() {
  return base::data_dir("REFINERY_PROBLEMS", "problems", REFINERY_SOURCE_DIR);
}

std::vector<std::string> ProblemIndex::folders() const {
  std::vector<std::string> out;
  std::error_code ec;
  for (const char* group : {"level1", "level2", "level3", "level4", "examples"}) {
    fs::path dir = fs::path(root_) / group;
    if (!fs::is_directory(dir, ec)) continue;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.is_directory() && fs::exists(entry.path() / "spec.yaml")) out.push_back(entry.path().string());
  }
  return out;
}

Result<std::vector<Problem>> ProblemIndex::list() const {
  std::vector<Problem> out;
  for (const auto& dir : folders()) {
    TRY_ASSIGN(Problem p, load_problem(dir));
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(), [](const Problem& a, const Problem& b) {
    int la = a.level ? a.level : 99, lb = b.level ? b.level : 99;
    if (la != lb) return la < lb;
    if (a.number != b.number) return a.number < b.number;
    return a.name < b.name;
  });
  return out;
}

Result<Problem> ProblemIndex::find(const std::string& id) const {
  std::error_code ec;
  if (fs::exists(fs::path(id) / "spec.yaml", ec)) return load_problem(id);
  // level1/19 or level1/19_relu: match the folder by its number prefix.
  auto slash = id.find('/');
  if (slash != std::string::npos) {
    std::string group = id.substr(0, slash), rest = id.substr(slash + 1);
    fs::path dir = fs::path(root_) / group;
    if (fs::exists(dir / rest / "spec.yaml", ec)) return load_problem((dir / rest).string());
    if (fs::is_directory(dir, ec)) {
      for (const auto& entry : fs::directory_iterator(dir, ec)) {
        std::string name = entry.path().filename().string();
        if (base::starts_with(name, rest + "_") && fs::exists(entry.path() / "spec.yaml"))
          return load_problem(entry.path().string());
      }
    }
  }
  // A name: the folder name after its number, then the spec's own name.
  std::vector<std::string> names;
  for (const auto& dir : folders()) {
    std::string folder = fs::path(dir).filename().string();
    auto underscore = folder.find('_');
    std::string tail = underscore == std::string::npos ? folder : folder.substr(underscore + 1);
    if (tail == id || folder == id) return load_problem(dir);
    names.push_back(tail);
  }
  for (const auto& dir : folders()) {
    auto p = load_problem(dir);
    if (p && p->name == id) return p;
  }
  std::string message = "unknown problem '" + id + "' in " + root_;
  if (auto guess = base::closest_match(id, names))
    message += " (did you mean '" + *guess + "'?)";
  else
    message += " (see 'refinery problems list')";
  return Error{message};
}

Result<std::vector<Problem>> ProblemIndex::select(const std::string& pattern) const {
  std::vector<Problem> out;
  if (base::starts_with(pattern, "set:")) {
    const std::string name = pattern.substr(4);
    if (auto bad = base::path_component_problem(name)) return Error{"problem set '" + name + "': " + *bad};
    const std::string path = (fs::path(root_) / "sets" / (name + ".txt")).string();
    auto text = base::read_file(path);
    if (!text) return Error{"unknown problem set '" + name + "': " + text.error().message};
    int line_no = 0;
    for (const auto& raw : base::split(*text, '\n')) {
      ++line_no;
      std::string line = base::trim(raw.substr(0, raw.find('#')));
      if (line.empty()) continue;
      const std::string where = path + ":" + std::to_string(line_no);
      if (base::starts_with(line, "set:")) return Error{where + ": a set lists ids and ranges, not other sets"};
      auto some = select(line);
      if (!some) return some.error().wrap(where);
      for (auto& p : *some) out.push_back(std::move(p));
    }
    if (out.empty()) return Error{"problem set '" + name + "' (" + path + ") lists no problem"};
    return out;
  }
  if (base::starts_with(pattern, "tag:")) {
    const std::string tag = pattern.substr(4);
    if (std::find(kProblemTags.begin(), kProblemTags.end(), tag) == kProblemTags.end())
      return Error{"unknown tag '" + tag + "' (tags: " + base::join(kProblemTags, ", ") + ")"};
    TRY_ASSIGN(std::vector<Problem> all, list());
    for (auto& p : all)
      if (std::find(p.tags.begin(), p.tags.end(), tag) != p.tags.end()) out.push_back(std::move(p));
    if (out.empty()) return Error{"no problem in " + root_ + " has the tag '" + tag + "'"};
    return out;
  }
  static const std::regex range(R"(level(\d)/(\d+)-(\d+))");
  std::smatch m;
  if (std::regex_match(pattern, m, range)) {
    const int level = std::stoi(m[1]);
    const long first = std::stol(m[2]), last = std::stol(m[3]);
    if (first > last) return Error{"problem range '" + pattern + "' ends before it starts"};
    TRY_ASSIGN(std::vector<Problem> all, list());
    for (auto& p : all)
      if (p.level == level && p.number >= first && p.number <= last) out.push_back(std::move(p));
    if (out.empty()) return Error{"problem range '" + pattern + "' selects no problem in " + root_};
    return out;
  }
  TRY_ASSIGN(Problem one, find(pattern));
  out.push_back(std::move(one));
  return out;
}

}  // namespace eval
