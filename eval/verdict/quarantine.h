// Whether a correct candidate's speedup is too good to count before a person
// has looked at it (docs/integrity.md): above the campaign's factor
// (eval.quarantine_speedup), or faster than the device could have read the
// inputs and written the outputs at its peak bandwidth (the physics floor;
// cuda, with the cache flushed between calls, so that every input came from
// DRAM). A quarantined attempt stays correct and recorded; the report leaves it
// out of fast_p for p > 0 until it is accepted (`refinery accept`). Pure.
#pragma once

#include <string>
#include <vector>

#include "eval/problems/problem.h"
#include "eval/verdict/outcome.h"

namespace eval {

// The bytes of a shape string as the worker reports outputs ("[4, 8] float32");
// 0 when it does not parse.
double shape_bytes(const std::string& shape);

// The reason, or "" when the speedup stands. `max_speedup` <= 0 turns the
// factor off; the floor applies where the outcome's versions name the
// device's peak bandwidth and its timing flushed the cache.
std::string quarantine_reason(const std::vector<ResolvedInput>& inputs, const Outcome& outcome, double max_speedup);

// What eval.library_only does with a correct candidate that ran no kernel of
// its own in its timed calls (KernelEvidence::library_only): `correct` marks
// it (Outcome::library_only: the report leaves its speedup out of fast_p for
// p > 0 and the geomean) and says so in the message, `reject` makes it
// `rejected`, `count` leaves it as it is.
void apply_library_only(Outcome& outcome, LibraryOnly setting);

}  // namespace eval
