#include "agent/cli/status_line.h"

#include "base/text.h"

namespace agent {

std::string StatusLine::text(const Progress& p, double elapsed_s) const {
  const int fresh = p.done - resumed_;
  const std::string left = p.done >= p.total ? ""
                           : fresh > 0
                               ? ", ~" + base::format_ms(elapsed_s / fresh * (p.total - p.done) * 1000) + " left"
                               : "";
  char line[256];
  std::snprintf(line, sizeof line, "[%d/%d] turn %d, %d correct, fast_1 %.1f%%, %lld tokens, $%.4f, %s elapsed%s",
                p.done, p.total, p.max_turn, p.correct, p.chains ? 100.0 * p.fast_1_chains / p.chains : 0.0,
                static_cast<long long>(p.tokens), p.cost_usd, base::format_ms(elapsed_s * 1000).c_str(), left.c_str());
  return line;
}

void StatusLine::show(const Progress& p, double elapsed_s) {
  if (terminal_) {
    std::fprintf(out_, "\r%s\033[K", text(p, elapsed_s).c_str());
  } else if (p.done == p.total || last_shown_s_ < 0 || elapsed_s - last_shown_s_ >= 1) {
    std::fprintf(out_, "%s\n", text(p, elapsed_s).c_str());
    last_shown_s_ = elapsed_s;
  }
  std::fflush(out_);
}

}  // namespace agent
