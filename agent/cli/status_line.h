// `refinery run`'s status line: after each attempt, where the campaign stands
// (attempts done, turn, correct, fast_1, tokens, cost, time spent and left).
// On a terminal the line is overprinted in place; elsewhere (a log, CI) it is
// printed as plain lines, at most one a second, and always the last.
//
// The caller gives the time: `elapsed_s`, seconds since this run started, so
// the line's text and its pacing are exact in a test. One per run, called
// from the campaign's progress callback (serialised).
#pragma once

#include <cstdio>
#include <string>

#include "agent/campaign/campaign.h"

namespace agent {

class StatusLine {
 public:
  // `resumed`: attempts found in the store when the run started; they came for
  // free, so the time left is estimated from the others alone.
  StatusLine(FILE* out, bool terminal, int resumed) : out_(out), terminal_(terminal), resumed_(resumed) {}

  // The line for `p` at `elapsed_s`, without a newline.
  std::string text(const Progress& p, double elapsed_s) const;
  // Prints it, overprinting on a terminal, else when due.
  void show(const Progress& p, double elapsed_s);

 private:
  FILE* out_;
  bool terminal_;
  int resumed_;
  double last_shown_s_ = -1;  // off a terminal: when a line was last printed; < 0 before the first
};

}  // namespace agent
