#!/usr/bin/env bash
# Figures for one `refinery eval` on a GPU host: where the wall time goes
# (cold cache, then a new candidate with the reference cached, then all
# cached), the spread of speedup over repeated evaluations of one correct
# candidate, and the candidate's median against ncu's gpu__time_duration.sum.
#
#   bench/eval_breakdown.sh [BUILD_DIR]      (default build-gpu)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build-gpu}
cache=$(mktemp -d /tmp/refinery-bench-XXXXXX)
cand=tests/fixtures/candidates/relu_cuda_correct.cu
variant=$cache/relu_variant.cu
results=$cache/results.jsonl

eval_json() {  # label candidate [extra flags]
  local label=$1 file=$2
  shift 2
  local t0 t1
  t0=$(date +%s.%N)
  "$bin/refinery" eval --problem level1/19 --candidate "$file" --backend cuda --size full \
    --json --cache-dir "$cache" "$@" > "$cache/out.json"
  t1=$(date +%s.%N)
  python3 - "$label" "$t0" "$t1" "$cache/out.json" >> "$results" <<'PY'
import json, sys
label, t0, t1, path = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
j = json.load(open(path))
j["label"], j["wall_s"] = label, t1 - t0
print(json.dumps(j))
PY
}

eval_json cold "$cand"
{ echo "// variant: same kernel, new text, so the candidate compile misses the cache"; cat "$cand"; } > "$variant"
eval_json new-candidate "$variant"
eval_json cached "$cand"
for i in 1 2 3 4 5; do eval_json "repeat$i" "$cand"; done
# One more, kept, so that ncu can replay the same job on the worker alone.
eval_json kept "$cand" --keep --timing-trials 20

python3 - "$results" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("%-14s %-8s %8s %8s %8s %8s %8s %8s %8s %8s %9s %9s %8s" % (
    "run", "status", "wall_s", "compile", "worker", "init", "runner", "inputs", "correct", "timing",
    "cand_ms", "ref_ms", "speedup"))
for r in rows:
    p = r["phases_ms"]
    g = lambda k: p.get(k, 0) / 1000
    print("%-14s %-8s %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f %9.4f %9.4f %8.4f" % (
        r["label"], r["status"], r["wall_s"], g("compile"), g("worker_wall"), g("device_init"), g("runner"),
        g("inputs"), g("correctness"), g("timing"), r["candidate_ms"] or 0, r["reference_ms"] or 0,
        r["speedup"] or 0))
    if r["label"] in ("cold", "new-candidate"):
        print("   candidate compile %.2f s (cached: %s)" % (r["compile"]["seconds"], r["compile"]["cached"]))
sp = [r["speedup"] for r in rows if r["label"].startswith("repeat")]
med = statistics.median(sp)
print("speedup over 5 evaluations: median %.4f, min %.4f, max %.4f, max deviation from median %.2f%%" % (
    med, min(sp), max(sp), 100 * max(abs(s - med) for s in sp) / med))
PY

job=$(ls -d "$cache"/jobs/job-* | tail -1)
if command -v ncu >/dev/null && [ -f "$job/job.kept.json" ]; then
  ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    "$bin/refinery-worker" "$job/job.kept.json" > "$cache/ncu.csv" 2> "$cache/ncu.err" || tail -5 "$cache/ncu.err"
  python3 - "$cache/ncu.csv" "$job/result.json" <<'PY'
import csv, json, statistics, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if l.startswith('"'))]
by = {}
for r in rows:
    if r.get("Metric Name") != "gpu__time_duration.sum":
        continue
    unit, v = r["Metric Unit"], float(r["Metric Value"].replace(",", ""))
    v = v * {"nsecond": 1e-6, "ns": 1e-6, "usecond": 1e-3, "us": 1e-3}.get(unit, 1.0)  # to ms
    by.setdefault(r["Kernel Name"][:110], []).append(v)
print("ncu gpu__time_duration.sum by kernel (ms): count, median")
for name, vs in sorted(by.items(), key=lambda kv: -sum(kv[1])):
    print("  %4d %10.4f  %s" % (len(vs), statistics.median(vs), name))
res = json.load(open(sys.argv[2]))["timing"]
print("refinery medians: candidate %.4f ms, reference %.4f ms (%d and %d trials)" % (
    res["candidate"]["median_ms"], res["reference"]["median_ms"], res["candidate"]["trials"],
    res["reference"]["trials"]))
PY
else
  echo "ncu or the kept job is missing; skipping the ncu comparison"
fi
