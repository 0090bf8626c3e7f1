// File-system helpers: whole-file reads, atomic writes (temp file + rename, so
// a reader never sees half a file), private temporary folders, and the
// user's cache folder. Errors name the path. Safe from any thread.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"

namespace base {

Result<std::string> read_file(const std::string& path);
Status write_file(const std::string& path, const std::string& content);
// Writes path.tmp.<pid> then renames it over path.
Status write_file_atomic(const std::string& path, const std::string& content);
// Appends `content` to path (created if missing) in one write(2) and fsyncs it.
Status append_file(const std::string& path, const std::string& content);
// Creates path and its missing parents with exactly `mode` (0755 stays 0755
// under any umask); folders that already exist are left as they are.
Status make_dirs(const std::string& path, unsigned mode);
// Creates a fresh folder under parent named prefix-XXXXXX, mode 0700.
Result<std::string> make_temp_dir(const std::string& parent, const std::string& prefix);
// Gives dir and everything under it to uid:gid, never following a link: it
// walks by descriptors, so a tree that changes meanwhile (a sandboxed tool
// still writing in it) cannot steer it outside. Needs root for another uid.
Status chown_tree(const std::string& dir, unsigned uid, unsigned gid);
// $REFINERY_CACHE_DIR, else $XDG_CACHE_HOME/refinery, else ~/.cache/refinery.
std::string default_cache_dir();
// The folder holding the running executable.
std::string executable_dir();

// Where a data folder of the program (`name`: prompts, problems, configs) is:
// $env_var when set; else <prefix>/share/refinery/<name> when the running
// executable is installed as <prefix>/bin/... and that folder exists; else
// <source_dir>/<name>, for a binary run from its build folder.
std::string data_dir(const char* env_var, const std::string& name, const std::string& source_dir);

// One line of /proc/<pid>/mountinfo: the mounted folder of its file system
// (root), where it is mounted (point; both unescaped), the file system's type
// and its super options.
struct Mount {
  std::string root, point, fstype;
  std::vector<std::string> super_options;
};
// The lines of a mountinfo file's text, in its order; malformed lines are skipped.
std::vector<Mount> parse_mountinfo(const std::string& text);

// The absolute path of an executable found on $PATH, or "" (a name with a
// slash is returned as it is).
std::string find_on_path(const std::string& name);

}  // namespace base
