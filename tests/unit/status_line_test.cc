// refinery run's status line (agent/cli/status_line.h), given the time: its
// exact text, and how often it is printed off a terminal.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "agent/cli/status_line.h"

namespace {

agent::Progress progress(int done) {
  agent::Progress p;
  p.done = done;
  p.total = 10;
  p.correct = 3;
  p.chains = 4;
  p.fast_1_chains = 1;
  p.max_turn = 2;
  p.tokens = 12345;
  p.cost_usd = 0.5;
  return p;
}

// What `lines` printed, through a memory stream.
template <class F>
std::string printed(F&& lines) {
  char* buf = nullptr;
  size_t size = 0;
  FILE* out = open_memstream(&buf, &size);
  lines(out);
  std::fclose(out);
  std::string text(buf, size);
  std::free(buf);
  return text;
}

}  // namespace

TEST_SUITE("agent::StatusLine") {
  TEST_CASE("the line states the counts, the time spent and the time left at this run's pace") {
    agent::StatusLine line(stdout, false, 0);
    CHECK(line.text(progress(4), 8) ==
          "[4/10] turn 2, 3 correct, fast_1 25.0%, 12345 tokens, $0.5000, 8.00 s elapsed, ~12.00 s left");
    CHECK(line.text(progress(10), 20) ==
          "[10/10] turn 2, 3 correct, fast_1 25.0%, 12345 tokens, $0.5000, 20.00 s elapsed");
  }

  TEST_CASE("attempts found in the store do not count toward the pace; with none done yet, no time left is guessed") {
    agent::StatusLine resumed(stdout, false, 2);
    CHECK(resumed.text(progress(4), 8) ==
          "[4/10] turn 2, 3 correct, fast_1 25.0%, 12345 tokens, $0.5000, 8.00 s elapsed, ~24.00 s left");
    agent::StatusLine all_stored(stdout, false, 4);
    CHECK(all_stored.text(progress(4), 0.5) ==
          "[4/10] turn 2, 3 correct, fast_1 25.0%, 12345 tokens, $0.5000, 500.000 ms elapsed");
    agent::Progress none;
    CHECK(all_stored.text(none, 0) == "[0/0] turn 0, 0 correct, fast_1 0.0%, 0 tokens, $0.0000, 0.0 us elapsed");
  }

  TEST_CASE("off a terminal: the first line, then at most one a second, and always the last") {
    const std::string text = printed([](FILE* out) {
      agent::StatusLine line(out, false, 0);
      line.show(progress(1), 0.2);
      line.show(progress(2), 0.9);  // within the second: not printed
      line.show(progress(3), 1.3);
      line.show(progress(10), 1.4);  // the last
    });
    CHECK(text ==
          "[1/10] turn 2, 3 correct, fast_1 25.0%, 12345 tokens, $0.5000, 200.000 ms elapsed, ~1.80 s left\n"
          "[3/10] turn 2, 3 correct, fast_1 25.0%, 12345 tokens, $0.5000, 1.30 s elapsed, ~3.03 s left\n"
          "[10/10] turn 2, 3 correct, fast_1 25.0%, 12345 tokens, $0.5000, 1.40 s elapsed\n");
  }

  TEST_CASE("on a terminal: every line, overprinting the last") {
    const std::string text = printed([](FILE* out) {
      agent::StatusLine line(out, true, 0);
      line.show(progress(1), 0.2);
      line.show(progress(2), 0.3);
    });
    CHECK(text ==
          "\r[1/10] turn 2, 3 correct, fast_1 25.0%, 12345 tokens, $0.5000, 200.000 ms elapsed, ~1.80 s left\033[K"
          "\r[2/10] turn 2, 3 correct, fast_1 25.0%, 12345 tokens, $0.5000, 300.000 ms elapsed, ~1.20 s left\033[K");
  }
}
