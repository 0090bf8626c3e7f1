#!/usr/bin/env bash
# On a GPU host: how small a kernel can be before its speedup stops being
# repeatable. Copies level1/19 (ReLU) at sizes from 2^14 to 2^30 elements into
# a scratch problems folder, evaluates the same honest kernel five times at
# each, and prints per size the reference and candidate medians, the judge's
# overhead and how many calls its clock raised, and the spread of the speedup
# (max deviation from the median of the five).
#
#   bench/timing_floor.sh [BUILD_DIR] [REPEATS]     (default build-gpu, 5)
#   REFINERY_FLOOR_SIZES="14 20 26" picks the log2 sizes
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build-gpu}
repeats=${2:-5}
work=$(mktemp -d /tmp/refinery-floor-XXXXXX)
mkdir -p "$work/problems/level4"
results=$work/results.jsonl
cand=tests/fixtures/candidates/relu_cuda_correct.cu
for log2 in ${REFINERY_FLOOR_SIZES:-14 16 18 20 22 24 26 28 30}; do
  dir=$work/problems/level4/${log2}_relu_2e${log2}
  mkdir -p "$dir"
  cp problems/level1/19_*/reference.cpp "$dir/"
  d=$(( (1 << log2) / 1024 ))
  sed -e "s/^name: relu/name: relu_2e${log2}/" -e "s/^level: 1/level: 4/" -e "s/^number: 19/number: ${log2}/" \
      -e "s/full: {B: 4096, D: 393216}/full: {B: 1024, D: ${d}}/" problems/level1/19_*/spec.yaml > "$dir/spec.yaml"
  for i in $(seq "$repeats"); do
    "$bin/refinery" eval --problems "$work/problems" --problem "level4/${log2}" --candidate "$cand" \
      --backend cuda --size full --json --timing-trace --cache-dir "$work/cache" > "$work/out.json"
    python3 -c "import json,sys; j=json.load(open('$work/out.json')); j['log2']=$log2; print(json.dumps(j))" >> "$results"
  done
  python3 -c "
import json, statistics
rs = [json.loads(l) for l in open('$results') if json.loads(l)['log2'] == $log2 and json.loads(l)['status'] == 'correct']
sp = [r['speedup'] for r in rs]
if sp:
    m = statistics.median(sp)
    print('2^$log2: ref %.4f ms, speedups %s, spread %.2f%%' % (rs[0]['reference_ms'], ' '.join('%.4f' % s for s in sp), 100 * max(abs(s - m) for s in sp) / m), flush=True)
"
done
python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("%6s %10s %10s %10s %9s %8s %7s %6s %9s %8s" % ("elems", "ref_ms", "cand_ms", "claim_ms", "overhead", "floored", "raise", "batch", "speedup", "spread"))
for log2 in sorted({r["log2"] for r in rows}):
    rs = [r for r in rows if r["log2"] == log2 and r["status"] == "correct"]
    if not rs:
        print("2^%-4d no correct run: %s" % (log2, [r["message"] for r in rows if r["log2"] == log2][:1]))
        continue
    sp = [r["speedup"] for r in rs]
    med = statistics.median(sp)
    t = [r["timing"] for r in rs]
    print("2^%-4d %10.4f %10.4f %10.4f %9.4f %8.1f %6.1f%% %6d %9.4f %7.2f%%" % (
        log2, statistics.median(x["reference"]["median_ms"] for x in t),
        statistics.median(x["candidate"]["median_ms"] for x in t),
        statistics.median(x["claimed_median_ms"] for x in t),
        statistics.median(x["judge_overhead_ms"] for x in t),
        statistics.mean(x["floored_calls"] / max(1, x["candidate"]["trials"]) for x in t) * 100,
        statistics.median(x.get("judge_raise_ms", 0) / x["claimed_median_ms"] for x in t) * 100,
        statistics.median(x.get("batch_calls", 1) for x in t), med, 100 * max(abs(s - med) for s in sp) / med))
# Where the bound's floor comes from (timing.trace): per window, what the
# judge's clock saw beyond the calls, for the reference (its own events) and
# the candidate (the runner's claims), against the window cost calibrated on
# the runner's stand-in before the candidate loaded, and that calibration's noise.
print()
print("%6s %6s %11s %11s %11s %9s %9s %9s" % ("elems", "batch", "cand_extra", "calibrated", "excess", "noise", "slack", "ref_extra"))
for log2 in sorted({r["log2"] for r in rows}):
    for r in rows:
        if r["log2"] != log2 or r["status"] != "correct" or "trace" not in r["timing"]:
            continue
        tr = r["timing"]["trace"]
        extra = statistics.median(w - c for w, c in zip(tr["candidate_windows_ms"], tr["candidate_claims_ms"]))
        ref_extra = statistics.median(w - c for w, c in zip(tr["reference_windows_ms"], tr["reference_calls_ms"]))
        cal = tr["calibration"]
        print("2^%-4d %6d %11.4f %11.4f %11.4f %9.4f %9.4f %9.4f" % (log2, tr["batch_calls"], extra, tr["window_cost_ms"],
              extra - tr["window_cost_ms"], cal["noise_ms"], tr["slack_ms"], ref_extra))
print("(per window, ms: cand_extra = window - claims, median; calibrated = the cost the bound took off;")
print(" excess = their difference (above the slack, calls are floored); ref_extra = the judge's own window - calls)")
print("(overhead: the judge's per call; floored: % of the candidate's timed calls the judge's clock raised;")
print(" raise: by how much, median over the runs, % of the claim; batch: calls per window, each on inputs of its own)")
PY
