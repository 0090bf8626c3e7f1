#!/usr/bin/env bash
# What the runner's launch watch (profiler/launch_watch.h) costs a cuda
# evaluation, and what the judge's checks add to one: the same honest ReLU on
# level1/19, REPEATS evaluations at each size with the watch on and with it
# off (--no-launch-watch), alternating, on one warm cache. Prints per
# evaluation the speedup, the runner's claimed median, the candidate's
# bounded median, how many calls the judge's bound floored, and the wall
# time of the checks (timing_checks, timing_fresh_inputs) beside the worker's.
#
#   bench/watch_cost.sh [BUILD_DIR] [REPEATS]      (default build-gpu, 3)
#   REFINERY_WATCH_SIZES="full small" (default)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build-gpu}
repeats=${2:-3}
cand=tests/fixtures/candidates/relu_cuda_correct.cu
work=$(mktemp -d /tmp/refinery-watch-XXXXXX)
trap 'rm -rf "$work"' EXIT
echo -e "size\twatch\tstatus\tspeedup\tclaimed ms\tcandidate ms\treference ms\tfloored\tchecked\ttiming_checks ms\tfresh_inputs ms\ttiming ms\tworker ms\town launches"
for size in ${REFINERY_WATCH_SIZES:-full small}; do
  for i in $(seq "$repeats"); do
    for watch in on off; do
      flags=()
      [ "$watch" = off ] && flags=(--no-launch-watch)
      "$bin/refinery" eval --problem level1/19 --candidate "$cand" --backend cuda --size "$size" --max-uncertainty 1000 \
        --json --cache-dir "$work/cache" "${flags[@]}" > "$work/out.json" 2> "$work/err" || true
      python3 - "$work/out.json" "$size" "$watch" <<'PY' || tail -5 "$work/err"
import json, sys
j = json.load(open(sys.argv[1]))
t, p, k = j.get("timing") or {}, j.get("phases_ms", {}), j.get("kernels") or {}
if not t:
    print(f"{sys.argv[2]}\t{sys.argv[3]}\t{j['status']}\t{j.get('message', '')[:200]}")
else:
    print(f"{sys.argv[2]}\t{sys.argv[3]}\t{j['status']}\t{t['speedup']:.3f}x\t{t['claimed_median_ms']:.4f}\t"
          f"{t['candidate']['median_ms']:.4f}\t{t['reference']['median_ms']:.4f}\t{t['floored_calls']}/{t['candidate']['trials']}\t"
          f"{t['checked_calls']}\t{p.get('timing_checks', 0):.0f}\t{p.get('timing_fresh_inputs', 0):.0f}\t{p.get('timing', 0):.0f}\t"
          f"{p.get('worker_wall', 0):.0f}\t{k.get('own_launches', '-')}")
PY
    done
  done
done
