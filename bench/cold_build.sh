#!/usr/bin/env bash
# A cold build of the binaries and tests, as CI does it (no compile cache):
# each REV is cloned into a temporary folder, configured as scripts/setup.sh
# configures, and built with -j$(nproc); prints per REV the wall time and the
# CPU time (user + system, the steadier figure on a machine with other work).
# REVs build one after another, so run it on an otherwise idle machine for
# wall times that compare.
#
#   bench/cold_build.sh REV...      (e.g. bench/cold_build.sh main~5 main)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
[ $# -gt 0 ] || { echo "usage: bench/cold_build.sh REV..." >&2; exit 2; }
work=$(mktemp -d /tmp/refinery-cold-build-XXXXXX)
trap 'rm -rf "$work"' EXIT
printf "%-12s %10s %10s %10s\n" rev wall_s user_s sys_s
for rev in "$@"; do
  dir=$work/$(echo "$rev" | tr -c 'A-Za-z0-9_\n' _)
  git clone -q "$repo" "$dir"
  git -C "$dir" checkout -q "$rev"
  cmake -S "$dir" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$dir.configure.log"
  # CCACHE_DISABLE: a launcher configured elsewhere is not used here either.
  CCACHE_DISABLE=1 /usr/bin/time -f "%e %U %S" -o "$dir.time" cmake --build "$dir/build" -j"$(nproc)" > "$dir.build.log"
  read -r wall user sys < "$dir.time"
  printf "%-12s %10s %10s %10s\n" "$rev" "$wall" "$user" "$sys"
  rm -rf "$dir"
done
