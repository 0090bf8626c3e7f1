// A branching search's tree as text: per (model, strategy) arm that holds
// attempts at the problem, every attempt under its parent (AttemptKey::parent),
// with its verdict. What `refinery report RUN --tree PROBLEM` prints. A
// linear chain reads as a single line of descent: each turn under the one
// before it. Pure.
#pragma once

#include <string>
#include <vector>

#include "agent/campaign/attempt.h"

namespace agent {

// The trees of `problem`'s attempts, one per arm in the order the attempts
// first name them; "" when none is at that problem.
std::string render_search_tree(const std::vector<Attempt>& attempts, const std::string& problem);

}  // namespace agent
