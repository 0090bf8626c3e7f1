#include "base/fs.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace base {
namespace fs = std::filesystem;

namespace {

// Everything under the open folder `dir` (path: for messages), depth first.
Status chown_below(int dir, const std::string& path, unsigned uid, unsigned gid, int depth) {
  if (depth > 64) return Error{path + ": too deep to hand over"};
  int listing = dup(dir);
  DIR* d = listing >= 0 ? fdopendir(listing) : nullptr;
  if (!d) {
    if (listing >= 0) close(listing);
    return Error{path + ": cannot list: " + std::strerror(errno)};
  }
  Status status;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st {};
    if (fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone meanwhile
    if (S_ISDIR(st.st_mode)) {
      int sub = openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0) continue;  // replaced meanwhile by something else: not followed
      status = chown_below(sub, path + "/" + name, uid, gid, depth + 1);
      if (status && fchown(sub, uid, gid) != 0)
        status = Error{path + "/" + name + ": cannot change its owner: " + std::strerror(errno)};
      close(sub);
    } else if (fchownat(dir, name.c_str(), uid, gid, AT_SYMLINK_NOFOLLOW) != 0 && errno != ENOENT) {
      status = Error{path + "/" + name + ": cannot change its owner: " + std::strerror(errno)};
    }
    if (!status) break;
  }
  closedir(d);
  return status;
}

}  // namespace

Status chown_tree(const std::string& dir, unsigned uid, unsigned gid) {
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return Error{dir + ": cannot open: " + std::strerror(errno)};
  Status status = chown_below(fd, dir, uid, gid, 0);
  if (status && fchown(fd, uid, gid) != 0) status = Error{dir + ": cannot change its owner: " + std::strerror(errno)};
  close(fd);
  return status;
}

Result<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open: " + std::strerror(errno)};
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Status write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Error{path + ": cannot write: " + std::strerror(errno)};
  out << content;
  out.flush();
  if (!out) return Error{path + ": write failed: " + std::strerror(errno)};
  return {};
}

Status write_file_atomic(const std::string& path, const std::string& content) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  TRY(write_file(tmp, content));
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) return Error{path + ": cannot rename into place: " + ec.message()};
  return {};
}

Status append_file(const std::string& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Error{path + ": cannot append: " + std::strerror(errno)};
  const ssize_t n = ::write(fd, content.data(), content.size());
  const bool ok = n == static_cast<ssize_t>(content.size()) && ::fsync(fd) == 0;
  const std::string why = std::strerror(errno);
  ::close(fd);
  if (!ok) return Error{path + ": append failed: " + why};
  return {};
}

Status make_dirs(const std::string& path, unsigned mode) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return {};
  fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && parent != path) TRY(make_dirs(parent.string(), mode));
  if (::mkdir(path.c_str(), mode) != 0 && errno != EEXIST)
    return Error{path + ": cannot create: " + std::strerror(errno)};
  if (::chmod(path.c_str(), mode) != 0) return Error{path + ": cannot set its mode: " + std::strerror(errno)};
  return {};
}

Result<std::string> make_temp_dir(const std::string& parent, const std::string& prefix) {
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) return Error{parent + ": cannot create: " + ec.message()};
  std::string templ = (fs::path(parent) / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(templ.data())) return Error{templ + ": mkdtemp: " + std::strerror(errno)};
  return templ;
}

std::string default_cache_dir() {
  if (const char* d = std::getenv("REFINERY_CACHE_DIR"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return std::string(d) + "/refinery";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/refinery";
  return "/tmp/refinery-cache";
}

std::string executable_dir() {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return ".";
  return p.parent_path().string();
}

std::string data_dir(const char* env_var, const std::string& name, const std::string& source_dir) {
  if (const char* v = std::getenv(env_var); v && *v) return v;
  const fs::path installed = fs::path(executable_dir()).parent_path() / "share" / "refinery" / name;
  std::error_code ec;
  if (fs::is_directory(installed, ec)) return installed.string();
  return (fs::path(source_dir) / name).string();
}

namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape_octal(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
      out += static_cast<char>(std::strtol(s.substr(i + 1, 3).c_str(), nullptr, 8));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<std::string> split_on(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  return out;
}

}  // namespace

std::vector<Mount> parse_mountinfo(const std::string& text) {
  // "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue"
  std::vector<Mount> out;
  for (const auto& line : split_on(text, '\n')) {
    std::istringstream in(line);
    std::vector<std::string> f;
    for (std::string w; in >> w;) f.push_back(w);
    auto dash = std::find(f.begin(), f.end(), "-");
    if (dash == f.end() || dash - f.begin() < 6 || f.end() - dash < 4) continue;
    out.push_back({unescape_octal(f[3]), unescape_octal(f[4]), *(dash + 1), split_on(*(dash + 3), ',')});
  }
  return out;
}

std::string find_on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::string dirs = path;
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = (end > start ? dirs.substr(start, end - start) : ".") + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return std::filesystem::absolute(candidate).string();
    start = end + 1;
  }
  return "";
}

}  // namespace base
