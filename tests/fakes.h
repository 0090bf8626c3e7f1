// Fakes for unit tests of logic that spawns processes.
#pragma once

#include <algorithm>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "base/fs.h"
#include "base/subprocess.h"

namespace fakes {

// A compiler that answers --version, "compiles" by writing the -o file, and
// fails any source containing BROKEN (an error), KILLED (signal 9), NOSPACE
// (a full disk) or MEMORY_BOMB (the memory cap). Records every spawn.
class FakeCompiler : public base::ProcessSpawner {
 public:
  base::Result<base::ProcessResult> run(const base::SpawnOptions& o) override {
    std::lock_guard<std::mutex> lock(mutex);
    commands.push_back(o.argv);
    spawns.push_back(o);
    base::ProcessResult r;
    r.exit_code = 0;
    if (o.argv.size() == 2 && o.argv[1] == "--version") {
      r.out = version + "\n";
      return r;
    }
    std::string source, output;
    for (size_t i = 0; i < o.argv.size(); ++i) {
      if (o.argv[i] == "-o" && i + 1 < o.argv.size()) output = o.argv[i + 1];
      const std::string& a = o.argv[i];
      if (a.size() > 4 && (a.ends_with(".cpp") || a.ends_with(".cu"))) source = a;
    }
    auto text = base::read_file(source);
    ++runs;
    if (text.ok() && text->find("KILLED") != std::string::npos) {  // the OOM killer, say
      r.exit_code = -1;
      r.signal = 9;
      return r;
    }
    if (text.ok() && text->find("MEMORY_BOMB") != std::string::npos) {
      r.exit_code = 1;
      r.err = "cc1plus: out of memory allocating 65536 bytes after a total of 6442385408 bytes\n";
      return r;
    }
    if (text.ok() && text->find("NOSPACE") != std::string::npos) {
      r.exit_code = 1;
      r.err = "cc1plus: fatal error: error writing to /tmp/ccX.s: No space left on device\n";
      return r;
    }
    // A source that compiles only with LibTorch's own umbrella headers.
    bool lean = std::any_of(o.argv.begin(), o.argv.end(),
                            [](const std::string& a) { return a.starts_with("-I") && a.ends_with("/lean"); });
    if (lean && text.ok() && text->find("FULL_ONLY") != std::string::npos) {
      r.exit_code = 1;
      r.err = source + "(3): error: namespace \"at\" has no member \"save\"\n";
      return r;
    }
    // A source that has the compiler quote what it read: QUOTE(text) fails with text in the error.
    if (auto at = text.ok() ? text->find("QUOTE(") : std::string::npos; at != std::string::npos) {
      r.exit_code = 1;
      r.err = source + ":1:1: error: " + text->substr(at + 6, text->find(')', at) - at - 6) + "\n";
      return r;
    }
    if (text.ok() && text->find("BROKEN") != std::string::npos) {
      r.exit_code = 1;
      r.err = source + ":1:1: error: BROKEN is not a type\n";
      return r;
    }
    // BIG(n): a library of n bytes (sparse: nothing is written but its end).
    if (auto at = text.ok() ? text->find("BIG(") : std::string::npos; at != std::string::npos) {
      std::ofstream big(output);
      big.seekp(std::stoll(text->substr(at + 4)) - 1);
      big.put('x');
      ++compiles;
      return r;
    }
    std::ofstream(output) << "fake library";
    ++compiles;
    return r;
  }

  std::mutex mutex;
  std::string version = "fake-cc 1.0";
  std::vector<std::vector<std::string>> commands;
  std::vector<base::SpawnOptions> spawns;
  int compiles = 0;  // successful ones
  int runs = 0;      // every compile, failed ones too
};

}  // namespace fakes
