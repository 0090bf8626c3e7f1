// Human-readable renderings of evaluation outcomes for the terminal.
// Pure functions of their inputs.
#pragma once

#include <string>

#include "agent/cli/printer.h"
#include "eval/verdict/outcome.h"

namespace agent {

// A multi-line summary: verdict, timings or what explains the failure, and
// where the time went.
std::string format_outcome(const eval::Outcome& outcome, const Printer& printer);

}  // namespace agent
