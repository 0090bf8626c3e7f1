#!/usr/bin/env bash
# Does the reference's time per call depend on how many calls share a timed
# window? (Issue 31: the batch was once the candidate's to move, and on cpu a
# batch of 8 took the reference from about 3.0 to 6.7 ms a call.) Evaluates
# one honest candidate with the batch fixed at each size (--batch-calls),
# REPEATS times each, interleaving the sizes, and prints per evaluation the
# reference's median and its 95% interval, then per size the median of the
# medians and how far it lies from the one-call median, beside the timings'
# own uncertainty.
#
#   bench/batch_size.sh [BUILD_DIR] [REPEATS] [SIZES]     (default build, 3, "1 2 4 8")
#   REFINERY_BENCH_BACKEND=cuda REFINERY_BENCH_SIZE=full on a GPU host
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}
repeats=${2:-3}
sizes=${3:-1 2 4 8}
backend=${REFINERY_BENCH_BACKEND:-cpu}
size=${REFINERY_BENCH_SIZE:-small}
problem=${REFINERY_BENCH_PROBLEM:-level1/19}
cand=tests/fixtures/candidates/relu_correct.cpp
[ "$backend" = cuda ] && cand=tests/fixtures/candidates/relu_cuda_correct.cu
work=$(mktemp -d /tmp/refinery-batch-XXXXXX)
trap 'rm -rf "$work"' EXIT
for r in $(seq "$repeats"); do
  for n in $sizes; do
    "$bin/refinery" eval --problem "$problem" --candidate "$cand" --backend "$backend" --size "$size" \
      --batch-calls "$n" --max-uncertainty 1000 --json --cache-dir "$work/cache" > "$work/out.json" || true
    python3 - "$work/out.json" "$n" <<'PY' | tee -a "$work/all.tsv"
import json, sys
j = json.load(open(sys.argv[1]))
t = j.get("timing") or {}
if j.get("status") != "correct" or not t:
    print(f"{sys.argv[2]}\t-\t-\t-\t-\t{j.get('status')}: {j.get('message', '')[:100]}")
else:
    r = t["reference"]
    print(f"{t['batch_calls']}\t{r['median_ms']:.4f}\t{r['median_low_ms']:.4f}\t{r['median_high_ms']:.4f}\t"
          f"{t['uncertainty']:.3f}\t{j['speedup']:.3f}")
PY
  done
done
echo "--- batch, median of the reference's medians (ms), its change from batch 1, the timings' median uncertainty"
python3 - "$work/all.tsv" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r[1] == "-": continue
    by.setdefault(int(r[0]), []).append((float(r[1]), float(r[4])))
base = statistics.median(m for m, _ in by[min(by)]) if by else None
for n in sorted(by):
    med = statistics.median(m for m, _ in by[n])
    unc = statistics.median(u for _, u in by[n])
    print(f"{n}\t{med:.4f}\t{100 * (med / base - 1):+.1f}%\t{100 * unc:.1f}%")
PY
