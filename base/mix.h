// splitmix64's finaliser: a 64-bit value mixed so that nearby inputs give
// unrelated outputs, the same on every platform (the standard library's
// distributions are not). For draws that must replay exactly: a search's
// parents, a problem's hidden shapes. Pure; safe from any thread.
#pragma once

#include <cstdint>

namespace base {

inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A uniform double in [0, 1) from the top 53 bits of x.
inline double unit_interval(uint64_t x) {
  return static_cast<double>(x >> 11) * 0x1.0p-53;
}

}  // namespace base
