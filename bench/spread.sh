#!/usr/bin/env bash
# How well one honest candidate's speedup is known, idle and under load: the
# figures behind eval.max_uncertainty's default (README, Unstable timings).
#
# Evaluates the same kernel REPEATS times with the machine idle, then REPEATS
# times while LOAD busy processes compete for the cores, and prints for each
# evaluation the spread ((p90 - p10) / median) of the reference and of the
# candidate, the timing's uncertainty (the relative width of the speedup's 95%
# interval) and the speedup; then per phase the median and largest uncertainty.
# Re-measurement is off (--max-uncertainty 1000) so that the raw figures show.
#
#   bench/spread.sh [BUILD_DIR] [REPEATS] [LOAD]      (default build, 5, the core count)
#   REFINERY_SPREAD_BACKEND=cuda REFINERY_SPREAD_SIZE=full on a GPU host
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}
repeats=${2:-5}
load=${3:-$(nproc)}
backend=${REFINERY_SPREAD_BACKEND:-cpu}
size=${REFINERY_SPREAD_SIZE:-small}
cand=tests/fixtures/candidates/relu_correct.cpp
[ "$backend" = cuda ] && cand=tests/fixtures/candidates/relu_cuda_correct.cu
work=$(mktemp -d /tmp/refinery-spread-XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

measure() {  # phase
  for i in $(seq "$repeats"); do
    "$bin/refinery" eval --problem level1/19 --candidate "$cand" --backend "$backend" --size "$size" \
      --timing-trials 20 --max-uncertainty 1000 --json --cache-dir "$work/cache" > "$work/out.json"
    python3 - "$work/out.json" "$1" <<'PY' | tee -a "$work/$1.tsv"
import json, sys
j = json.load(open(sys.argv[1]))
t = j.get("timing") or {}
def spread(s): return (s["p90_ms"] - s["p10_ms"]) / s["median_ms"] if s.get("median_ms") else float("nan")
if j["status"] != "correct" or not t:
    print(f"{sys.argv[2]}\t{j['status']}\t-\t-\t-\t-\t{j.get('message', '')}")
else:
    print(f"{sys.argv[2]}\tcorrect\t{100*spread(t['reference']):.1f}%\t{100*spread(t['candidate']):.1f}%\t"
          f"{100*t['uncertainty']:.1f}%\t{t['speedup']:.3f}x\tclaimed {t['claimed_median_ms']:.4f} ms, "
          f"floored {t['floored_calls']} of {t['candidate']['trials']}, judge overhead {t['judge_overhead_ms']:.4f} ms, "
          f"slack {t.get('judge_slack_ms', 0):.4f} ms, contradicted {t.get('contradicted', 0)}, candidate {t['candidate']['median_ms']:.4f} ms")
PY
  done
}

echo -e "phase\tstatus\treference spread\tcandidate spread\tuncertainty\tspeedup\tbound (or message)"
measure idle
for _ in $(seq "$load"); do (while :; do :; done) & pids+=($!); done
measure loaded
python3 - "$work" <<'PY'
import statistics, sys
for phase in ("idle", "loaded"):
    worst = []
    speedups = []
    for line in open(f"{sys.argv[1]}/{phase}.tsv"):
        f = line.rstrip("\n").split("\t")
        if f[1] != "correct": continue
        worst.append(float(f[4].rstrip("%")))
        speedups.append(float(f[5].rstrip("x")))
    if worst:
        med = statistics.median(speedups)
        print(f"{phase}: uncertainty median {statistics.median(worst):.1f}%, max {max(worst):.1f}%; "
              f"speedup {min(speedups):.3f}x to {max(speedups):.3f}x over {len(worst)} evaluations "
              f"(lowest to highest {100 * (max(speedups) - min(speedups)) / med:.2f}% of the median)")
PY
