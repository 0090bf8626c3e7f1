// The exploit catalogue (tests/integrity/catalogue.tsv, docs/integrity.md) as a
// test: every entry for the backend, evaluated with a campaign's defaults
// (static checks on, quarantine at 20x) plus the entry's own static-check
// overrides, must come out as the catalogue says.
//
// Included by tests/integration/integrity_cpu_test.cc and
// tests/gpu/integrity_cuda_test.cc, each of which defines INTEGRITY_SUITE and
// integrity::evaluator() and integrity::backend() before including it.
// REFINERY_INTEGRITY_ONLY=a,b (words of the candidates' paths) runs only those
// entries, e.g. to re-run one exploit on a GPU host; the counts are then not
// checked.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/fs.h"
#include "base/text.h"
#include "test_support.h"

namespace integrity {
test_support::RealEvaluator& evaluator();
const char* backend();  // "cpu" or "cuda"

struct Entry {
  std::string klass, candidate, problem, backends, expect, static_checks, caught_by;
  int line = 0;
};

inline std::vector<Entry> catalogue() {
  const std::string path = std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/tests/integrity/catalogue.tsv";
  auto text = base::read_file(path);
  REQUIRE_MESSAGE(text.ok(), path);
  std::vector<Entry> out;
  int line_no = 0;
  for (const auto& line : base::split(*text, '\n')) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    auto f = base::split(line, '\t');
    REQUIRE_MESSAGE(f.size() == 7, path << ":" << line_no << ": 7 tab-separated fields expected");
    out.push_back({f[0], f[1], f[2], f[3], f[4], f[5], f[6], line_no});
  }
  return out;
}

inline bool for_backend(const Entry& e) {
  for (const auto& b : base::split(e.backends, ','))
    if (b == backend()) return true;
  return false;
}

// Whether REFINERY_INTEGRITY_ONLY leaves the entry in (unset: all do).
inline bool selected(const Entry& e) {
  const char* only = std::getenv("REFINERY_INTEGRITY_ONLY");
  if (!only || !*only) return true;
  for (const auto& word : base::split(only, ','))
    if (!word.empty() && e.candidate.find(word) != std::string::npos) return true;
  return false;
}

// The verdict as the catalogue names it.
inline std::string verdict(const eval::Outcome& o) {
  if (o.status == eval::Status::correct && !o.quarantine.empty()) return "quarantined";  // library only or not
  if (o.status == eval::Status::correct) return o.library_only ? "library_only" : "correct";
  if (o.status == eval::Status::rejected && o.phase == "static_checks") return "rejected:static";
  return eval::to_string(o.status);
}

}  // namespace integrity

TEST_SUITE(INTEGRITY_SUITE) {
  TEST_CASE("every exploit of the catalogue fails, every honest candidate passes") {
    auto& e = integrity::evaluator();
    const eval::EvalSettings saved = e.settings;
    int run = 0, exploits = 0, honest = 0;
    for (const auto& entry : integrity::catalogue()) {
      if (!integrity::for_backend(entry) || !integrity::selected(entry)) continue;
      e.settings = saved;
      e.settings.static_checks = eval::StaticPolicy{};  // a campaign's defaults
      e.settings.quarantine_speedup = 20;
      e.settings.library_only = eval::LibraryOnly::correct;
      std::vector<std::string> rules;
      for (const auto& s : base::split(entry.static_checks, ',')) {
        if (s == "-") continue;
        if (s.rfind("library_only=", 0) == 0) {
          auto choice = eval::parse_library_only(s.substr(13));
          REQUIRE_MESSAGE(choice.has_value(), s);
          e.settings.library_only = *choice;
        } else {
          rules.push_back(s);
        }
      }
      if (!rules.empty()) REQUIRE(eval::apply_policy(e.settings.static_checks, base::join(rules, ",")).ok());
      auto source = base::read_file(std::string(REFINERY_SOURCE_DIR_FOR_TESTS) + "/tests/integrity/" + entry.candidate);
      REQUIRE_MESSAGE(source.ok(), entry.candidate);
      auto o = e.run(entry.problem, *source);
      INFO("catalogue line " << entry.line << ": " << entry.klass << " (" << entry.candidate << " on " << entry.problem
                             << ")");
      CHECK_MESSAGE(integrity::verdict(o) == entry.expect,
                    integrity::verdict(o) << ": " << o.message << (o.quarantine.empty() ? "" : " / " + o.quarantine));
      // An honest candidate's findings never reject; a static rejection names its rule.
      if (entry.expect == "rejected:static") CHECK(o.message.rfind("static check '", 0) == 0);
      // Every cuda verdict that got as far as running the candidate says which kernels it ran.
      const std::string v = integrity::verdict(o);
      if (std::string(integrity::backend()) == "cuda" &&
          (v == "correct" || v == "library_only" || v == "quarantined" || v == "mismatch")) {
        CHECK_MESSAGE((o.kernels && o.kernels->watched), (o.kernels ? o.kernels->note : "no kernels in the verdict"));
        if (o.kernels && entry.expect == "correct" && entry.klass.rfind("honest", 0) == 0 &&
            entry.candidate.find(".cu") != std::string::npos) {
          CHECK(!o.kernels->library_only());
          CHECK(o.kernels->own_share() > 0.5);
        }
        if (o.kernels && entry.expect == "library_only") CHECK(o.kernels->own_launches == 0);
      }
      std::string kernels;
      if (o.kernels && o.kernels->watched)
        kernels = " | kernels: own " + std::to_string(o.kernels->timed_own) + ", other " +
                  std::to_string(o.kernels->timed_other) + " timed launches, own share " +
                  std::to_string(o.kernels->own_share()) + ", threads left " + std::to_string(o.kernels->threads_left) +
                  ", streams created " + std::to_string(o.kernels->streams_created);
      MESSAGE(std::string(integrity::backend())
              << " | " << entry.klass << " | " << entry.problem << " | " << integrity::verdict(o) << " | "
              << o.message.substr(0, 160) << kernels);
      ++run;
      (entry.klass.rfind("honest", 0) == 0 ? honest : exploits) += 1;
    }
    e.settings = saved;
    MESSAGE(run << " catalogue entries on " << std::string(integrity::backend()) << ": " << exploits << " exploits, "
                << honest << " honest");
    const char* only = std::getenv("REFINERY_INTEGRITY_ONLY");
    if (!only || !*only) {
      CHECK(exploits >= 10);
      CHECK(honest >= 1);
    } else {
      CHECK_MESSAGE(run > 0, "REFINERY_INTEGRITY_ONLY=" << only << " names no entry for this backend");
    }
  }
}
