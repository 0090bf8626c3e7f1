#!/usr/bin/env bash
# Profile figures on a GPU host:
#  1. `refinery eval --profile` of the ReLU fixture, with CUPTI and with ncu;
#  2. the quickstart at full size on cuda with profile feedback: the profile
#     section the model reads for each problem, and what profiling added to
#     each evaluation (inside the worker, and the worker's wall time against
#     the same campaign without profiling).
#
#   bench/profile_figures.sh [BUILD_DIR]      (default build-gpu)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build-gpu}
work=$(mktemp -d /tmp/refinery-profile-XXXXXX)
relu=tests/fixtures/candidates/relu_cuda_correct.cu

echo "== refinery eval --profile (cupti)"
"$bin/refinery" eval --problem level1/19 --candidate "$relu" --backend cuda --profile --cache-dir "$work/cache"
if command -v ncu >/dev/null; then
  echo "== refinery eval --profiler ncu"
  "$bin/refinery" eval --problem level1/19 --candidate "$relu" --backend cuda --profiler ncu --cache-dir "$work/cache"
fi

for mode in plain profile; do
  feedback="[compile, correctness, timing]"
  [ "$mode" = profile ] && feedback="[compile, correctness, timing, profile]"
  sed -e "s/backend: auto/backend: cuda/" -e "s/size: small/size: full/" \
      -e "s/feedback: \[compile, correctness, timing\]/feedback: $feedback/" \
      configs/quickstart.yaml > "$work/$mode.yaml"
  cp configs/quickstart-responses.jsonl "$work/"
  "$bin/refinery" run "$work/$mode.yaml" --out "$work/run-$mode" --cache-dir "$work/cache" > "$work/$mode.log"
done

python3 - "$work" <<'PY'
import glob, json, os, sys
work = sys.argv[1]
def results(mode):
    out = {}
    for r in glob.glob(f"{work}/run-{mode}/attempts/**/result.json", recursive=True):
        key = os.path.relpath(os.path.dirname(r), f"{work}/run-{mode}/attempts")
        out[key] = json.load(open(r))
    return out
plain, prof = results("plain"), results("profile")
print("\n== what profiling added per correct evaluation (ms)")
print(f"{'attempt':<48} {'profile phase':>14} {'worker, plain':>14} {'worker, profiled':>17}")
added = []
for key in sorted(prof):
    r = prof[key]
    if r.get("status") != "correct" or "profile" not in r: continue
    w0 = plain.get(key, {}).get("phases_ms", {}).get("worker_wall", float("nan"))
    w1 = r["phases_ms"].get("worker_wall", float("nan"))
    print(f"{key:<48} {r['profile'].get('overhead_ms', 0):>14.1f} {w0:>14.1f} {w1:>17.1f}")
    added.append(w1 - w0)
if added:
    print(f"mean added worker wall time: {sum(added) / len(added):.1f} ms over {len(added)} evaluations")
print("\n== the profile sections the model read (one per problem)")
seen = set()
for line in open(f"{work}/run-profile/attempts.jsonl"):
    a = json.loads(line)
    if a.get("status") != "correct" or a["problem"] in seen: continue
    fb = a.get("feedback", "")
    i = fb.find("Profile (")
    if i < 0: continue
    seen.add(a["problem"])
    print(f"--- {a['problem']} turn {a['turn']}\n{fb[i:]}\n")
PY
echo "work folder: $work"
