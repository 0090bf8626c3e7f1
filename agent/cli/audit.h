// The reference audit of `refinery problems check --audit`: does a kernel
// that skips the work pass? Each probe is an ordinary candidate, generated
// from the reference, evaluated the way every candidate is (sandboxed runner,
// hidden seeds, the problem's tolerance), without timing:
//
//   zeros       forward returns zeros shaped like the reference's outputs:
//               correct means the output is nearly zero against its tolerance
//   without X   forward calls the reference with tensor input X's elements
//               permuted (a cyclic shift of the flattened tensor by about
//               half its size): correct means the output does not depend on X
//               beyond the tolerance (or only through a permutation-invariant
//               summary of it, such as its sum; or, for a mean over millions
//               of elements, such as a loss, only through its distribution)
//
// When every tensor input is such, the output is constant across inputs.
// A finding names what passed; a problem with findings belongs in
// set:degenerate (problems/sets/degenerate.txt), or its spec says why not.
#pragma once

#include <string>
#include <vector>

#include "base/result.h"
#include "eval/evaluate.h"

namespace agent {

struct AuditProbe {
  std::string name;     // "zeros", "without x"
  std::string source;   // the candidate
  std::string finding;  // what it means when the probe is correct
};

// The probes of `problem`, whose reference source is `reference`.
std::vector<AuditProbe> audit_probes(const eval::Problem& problem, const std::string& reference);

// Runs each probe; the findings of those that came out correct.
base::Result<std::vector<std::string>> audit_reference(eval::Evaluator& evaluator, const eval::Problem& problem,
                                                       eval::EvalSettings settings);

}  // namespace agent
