// Finds problems under a problems folder (problems/level1/19_relu, ...) and
// resolves what users type: "level1/19", "level1/19_relu", "relu" or a path
// to a problem folder. Listing reads every spec; a spec that fails to load is
// reported, not skipped silently. Not synchronised; build one per command.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "eval/problems/problem.h"

namespace eval {

class ProblemIndex {
 public:
  // root: the folder holding level1/ level2/ level3/ examples/.
  explicit ProblemIndex(std::string root) : root_(std::move(root)) {}

  // Every problem folder under root, sorted by level and number.
  base::Result<std::vector<Problem>> list() const;
  base::Result<Problem> find(const std::string& id) const;
  // What a config's `ids` entry or a command line names: one problem (as
  // find), a range of one level ("level1/1-40", both ends included), or a
  // named set ("set:quick", the ids listed in <root>/sets/quick.txt, one per
  // line, # for comments; a set lists ids and ranges, not other sets), or
  // every problem with a tag ("tag:conv", kProblemTags). An error when it
  // selects nothing.
  base::Result<std::vector<Problem>> select(const std::string& pattern) const;
  const std::string& root() const { return root_; }

 private:
  std::vector<std::string> folders() const;
  std::string root_;
};

// $REFINERY_PROBLEMS, else the source tree's problems/ folder.
std::string default_problems_root();

}  // namespace eval
