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
    print("   checks: static %.1f ms, fresh inputs %.1f ms, checked calls %.1f ms%s" % (
        p.get("static_checks", 0), p.get("timing_fresh_inputs", 0), p.get("timing_checks", 0),
        "" if r["status"] == "correct" else "; " + r["message"][:200]))
sp = [r["speedup"] for r in rows if r["label"].startswith("repeat") and r["status"] == "correct"]
if not sp:
    sys.exit("no repeat was correct: no speedup spread")
med = statistics.median(sp)
print("speedup over 5 evaluations: median %.4f, min %.4f, max %.4f, max deviation from median %.2f%%" % (
    med, min(sp), max(sp), 100 * max(abs(s - med) for s in sp) / med))
PY

# The medians against the profilers' kernel times, on the same full-size job:
# ncu (gpu__time_duration.sum) follows the judge, so it times the reference's
# kernels; the candidate runs in the sandbox, out of ncu's reach, and its
# kernels' times come from CUPTI's activity records in the runner.
for prof in ncu cupti; do
  if [ "$prof" = ncu ] && ! command -v ncu >/dev/null; then echo "ncu is not on PATH"; continue; fi
  "$bin/refinery" eval --problem level1/19 --candidate "$cand" --backend cuda --size full --json \
    --cache-dir "$cache" --profiler "$prof" > "$cache/prof_$prof.json" 2> "$cache/prof_$prof.err" ||
    tail -5 "$cache/prof_$prof.err"
done
python3 - "$results" "$cache" <<'PY'
import json, os, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["label"].startswith("repeat")]
cand = statistics.median(r["timing"]["candidate"]["median_ms"] for r in rows)
ref = statistics.median(r["timing"]["reference"]["median_ms"] for r in rows)
print("refinery medians over the 5 repeats: candidate %.4f ms, reference %.4f ms" % (cand, ref))
for prof in ("ncu", "cupti"):
    path = os.path.join(sys.argv[2], "prof_%s.json" % prof)
    if not os.path.exists(path) or not os.path.getsize(path):
        continue
    p = json.load(open(path)).get("profile") or {}
    for side, median in (("reference", ref), ("candidate", cand)):
        ks = (p.get(side) or {}).get("kernels") or []
        if not ks:
            print("%-5s %-9s no kernels (%s)" % (prof, side, (p.get("counters_note") or "")[:160]))
            continue
        total = sum(k["duration_us"] for k in ks) / 1000
        print("%-5s %-9s %d kernels, %.4f ms in all; refinery's median is %+.2f%% of it" % (
            prof, side, len(ks), total, 100 * (median - total) / total))
PY
