// Small string helpers with no project knowledge: suggestions for misspelt
// words, trimming, joining, and keeping the head and tail of long text.
// Pure functions; safe from any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace base {

// Edit distance between a and b, counting a swap of neighbours as one edit.
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to word, if it is close enough to be a likely typo
// (distance <= max(1, len/3)).
std::optional<std::string> closest_match(std::string_view word, const std::vector<std::string>& candidates);

std::string trim(std::string_view s);
std::vector<std::string> split(std::string_view s, char sep);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
bool starts_with(std::string_view s, std::string_view prefix);
bool ends_with(std::string_view s, std::string_view suffix);

// Keeps at most max_bytes of text: its head and tail, with a marker saying how
// many bytes were dropped in between.
std::string head_and_tail(std::string_view text, size_t max_bytes);

// The last max_lines lines of text.
std::string last_lines(std::string_view text, size_t max_lines);

// Why `name` cannot be one component of a path refinery writes (a run
// folder, an arm's artifact folder), or nullopt when it can: 1 to 100 of
// letters, digits, '.', '_', '-' and '+', not starting with '.' or '-'
// (so never "..", a hidden file or a flag).
std::optional<std::string> path_component_problem(std::string_view name);

// A number as a person writes it: "300", "0.5", "1e+06" (printf's %g).
std::string format_number(double v);

// "1.23 ms", "456 us", "2.00 s".
std::string format_ms(double ms);
// "1.5 GiB", "12.0 MiB", "512 B".
std::string format_bytes(double bytes);
// A size as a person writes it, as ccache reads one: a number, optionally
// followed by a unit: B; K, M, G, T (or kB, MB, GB, TB: powers of 1000); KiB,
// MiB, GiB, TiB (or Ki, Mi, Gi, Ti: powers of 1024), in any case but the
// 'i'; spaces between allowed. "5GiB", "500 MB", "0". nullopt for anything
// else, a negative or non-finite number, or more than 2^63 bytes.
std::optional<uint64_t> parse_bytes(std::string_view text);

}  // namespace base
