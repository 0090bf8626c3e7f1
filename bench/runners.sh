#!/usr/bin/env bash
# Evaluation throughput with 1, 2 and 4 runners (eval.workers on cpu; on a
# GPU host the same logic runs one worker per GPU), and the cost of sharding:
# the offline quickstart (the replay provider answers at once) with a warm
# compile cache, so that what is measured is the evaluations.
#
#   bench/runners.sh [BUILD_DIR] [REPEATS]      (default build, 2)
#
# Prints, per runner count, attempts per minute (median of REPEATS runs);
# then the quickstart run whole and as 4 shards one after the other (the sum
# of their wall times less the whole's is what sharding costs), and the time
# `refinery report` takes on the whole run and on the 4 shards (the merge).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}
repeats=${2:-2}
work=$(mktemp -d /tmp/refinery-runners-XXXXXX)
trap 'rm -rf "$work"' EXIT
cache=$work/cache
cp configs/quickstart-responses.jsonl "$work/"
config() {  # runners -> path
  local path=$work/quickstart-$1.yaml
  sed "s/backend: auto/backend: cpu\n  workers: $1/" configs/quickstart.yaml | sed 's/\\n/\n/' > "$path"
  echo "$path"
}
seconds() { python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.2f}")' "$@"; }

# Warm the cache (and LibTorch's precompiled header) once.
"$bin/refinery" run "$(config 1)" --out "$work/warm" --cache-dir "$cache" > /dev/null

echo "cpu backend, $(nproc) cores, warm cache, replay provider; median of $repeats runs"
printf "%-8s %8s %8s %10s\n" runners attempts wall_s per_min
for n in 1 2 4; do
  walls=()
  for r in $(seq "$repeats"); do
    out=$work/r$n-$r
    t0=$(date +%s.%N)
    "$bin/refinery" run "$(config "$n")" --out "$out" --cache-dir "$cache" > /dev/null
    walls+=("$(seconds "$t0" "$(date +%s.%N)")")
  done
  attempts=$(grep -c . "$out/attempts.jsonl")
  python3 - "$n" "$attempts" "${walls[@]}" <<'PY'
import statistics, sys
n, attempts, walls = sys.argv[1], int(sys.argv[2]), [float(w) for w in sys.argv[3:]]
wall = statistics.median(walls)
print(f"{n:<8} {attempts:>8} {wall:>8.1f} {60 * attempts / wall:>10.1f}")
PY
done

echo
t0=$(date +%s.%N)
"$bin/refinery" run "$(config 1)" --out "$work/whole" --cache-dir "$cache" > /dev/null
whole=$(seconds "$t0" "$(date +%s.%N)")
sum=0
for i in 0 1 2 3; do
  t0=$(date +%s.%N)
  "$bin/refinery" run "$(config 1)" --shard "$i/4" --out "$work/sharded/shards/$i" --cache-dir "$cache" > /dev/null
  sum=$(python3 -c 'import sys; print(float(sys.argv[1]) + float(sys.argv[2]))' "$sum" "$(seconds "$t0" "$(date +%s.%N)")")
done
echo "whole run: ${whole} s; 4 shards one after another: ${sum} s (sharding costs $(python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.1f}")' "$whole" "$sum") s: 3 more start-ups and reports)"
t0=$(date +%s.%N)
"$bin/refinery" report "$work/whole" --json > /dev/null
r_whole=$(seconds "$t0" "$(date +%s.%N)")
t0=$(date +%s.%N)
"$bin/refinery" report "$work/sharded" --json > /dev/null
r_merged=$(seconds "$t0" "$(date +%s.%N)")
echo "refinery report: ${r_whole} s on the whole run, ${r_merged} s merging the 4 shards"
