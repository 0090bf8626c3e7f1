#!/usr/bin/env bash
# Attempts per minute of the offline quickstart (the replay provider answers at
# once) with real compiles and evaluations, and where the wall time goes:
# compiling, the worker, and refinery's own overhead (prompts, extraction,
# feedback, the run store, start-up and the report).
#
#   bench/replay_throughput.sh [BUILD_DIR] [BACKEND]     (default build, cpu)
#
# Four runs of configs/quickstart.yaml: a cold compile cache and a warm one,
# each with one evaluation thread (so the phases add up to the wall time and
# the remainder is overhead) and with the default (cores + 1).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}
backend=${2:-cpu}
work=$(mktemp -d /tmp/refinery-throughput-XXXXXX)
config=$work/quickstart.yaml
sed "s/backend: auto/backend: $backend/" configs/quickstart.yaml > "$config"
cp configs/quickstart-responses.jsonl "$work/"

run() {  # label cache threads
  local label=$1 cache=$2 threads=$3 out=$work/run-$1
  local t0 t1
  t0=$(date +%s.%N)
  "$bin/refinery" run "$config" --out "$out" --cache-dir "$cache" ${threads:+--threads $threads} > "$work/$label.log"
  t1=$(date +%s.%N)
  python3 - "$label" "$t0" "$t1" "$out" <<'PY'
import glob, json, sys
label, t0, t1, out = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
wall = t1 - t0
attempts = [json.loads(l) for l in open(out + "/attempts.jsonl") if l.strip()]
compile_s = worker_s = 0.0
for r in glob.glob(out + "/attempts/**/result.json", recursive=True):
    p = json.load(open(r)).get("phases_ms", {})
    compile_s += p.get("compile", 0) / 1000
    worker_s += (p.get("total", 0) - p.get("compile", 0)) / 1000
print(f"{label:<18} {len(attempts):>8} {wall:>8.1f} {60 * len(attempts) / wall:>10.1f} "
      f"{compile_s:>10.1f} {worker_s:>9.1f} {wall - compile_s - worker_s:>11.1f}")
PY
}

echo "backend $backend, $(nproc) cores; seconds unless noted"
printf "%-18s %8s %8s %10s %10s %9s %11s\n" run attempts wall_s per_min compile_s worker_s overhead_s
run cold-1thread "$work/cache-a" 1
run warm-1thread "$work/cache-a" 1
run cold-default "$work/cache-b" ""
run warm-default "$work/cache-b" ""
echo "(overhead = wall - compile - worker; meaningful for the 1-thread runs, where nothing overlaps)"
rm -rf "$work"
