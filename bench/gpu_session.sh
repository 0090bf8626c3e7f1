#!/usr/bin/env bash
# One GPU-host session's checks, in the order that teaches the most if it is
# cut short: build (scripts/gpu-host.sh), `refinery doctor`, one full-size
# evaluation, then the stage asked for. Logs go to $OUT (or /tmp/refinery-gpu).
#
#   bench/gpu_session.sh tests      the cuda end-to-end and profile tests
#   bench/gpu_session.sh attacks    the attack suite on the cuda backend
#   bench/gpu_session.sh figures    eval_breakdown.sh and timing_floor.sh
#   bench/gpu_session.sh compile    compile_headers.sh, then the published-kernel tests
#   bench/gpu_session.sh all        all three
#   bench/gpu_session.sh final      attacks, figures, then tests, each cut to fit one 10-minute call
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/refinery-gpu}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
stage=${1:-all}
start=$(date +%s)
step() { echo "== $(( $(date +%s) - start )) s: $*"; }

step build
if ! { time scripts/gpu-host.sh build; } > "$out/build.log" 2>&1; then
  tail -60 "$out/build.log"
  exit 1
fi
tail -4 "$out/build.log"
if [ "$stage" != final ]; then
  step doctor
  timeout 120 build-gpu/refinery doctor --backend cuda 2>&1 | tee "$out/doctor.log"
fi
step "one full-size evaluation"
timeout 180 build-gpu/refinery eval --problem level1/19 --candidate tests/fixtures/candidates/relu_cuda_correct.cu \
  --backend cuda --size full --json > "$out/eval_full.json" 2> "$out/eval_full.err"
python3 - "$out/eval_full.json" <<'PY' || tail -20 "$out/eval_full.err"
import json, sys
j = json.load(open(sys.argv[1]))
print(j["status"], j["message"], "trusted:", j.get("trusted"), "missing:", j.get("sandbox", {}).get("missing"))
print("phases_ms:", {k: round(v) for k, v in j["phases_ms"].items()})
t = j.get("timing") or {}
if t:
    print("candidate %.4f ms (claimed %.4f, judge overhead %.4f, floored %d of %d, checked %d), reference %.4f ms" % (
        t["candidate"]["median_ms"], t["claimed_median_ms"], t["judge_overhead_ms"], t["floored_calls"],
        t["candidate"]["trials"], t["checked_calls"], t["reference"]["median_ms"]))
PY
if [ "$stage" = final ]; then
  step "tests/gpu: attacks"
  timeout 230 build-gpu/tests/refinery_gpu_tests -ts='attacks*' 2>&1 | tee "$out/gpu_attacks.log" | tail -25
  step "eval_breakdown"
  timeout 110 bench/eval_breakdown.sh 2>&1 | tee "$out/breakdown.log" | tail -22
  step "timing_floor"
  REFINERY_FLOOR_SIZES="${REFINERY_FLOOR_SIZES:-18 20 22 24 26 28 30}" timeout 150 bench/timing_floor.sh build-gpu 5 2>&1 | tee "$out/floor.log" | tail -10
  step "tests/gpu: eval and profile"
  timeout 120 build-gpu/tests/refinery_gpu_tests -ts='eval end to end*,*profil*' 2>&1 | tee "$out/gpu_tests.log" | tail -30
fi
case "$stage" in
  tests|all)
    step "tests/gpu: eval and profile"
    timeout 400 build-gpu/tests/refinery_gpu_tests -ts='eval end to end*,*profil*,published*' 2>&1 | tee "$out/gpu_tests.log" | tail -40 ;;&
  attacks|all)
    step "tests/gpu: attacks"
    timeout 400 build-gpu/tests/refinery_gpu_tests -ts='attacks*' 2>&1 | tee "$out/gpu_attacks.log" | tail -40 ;;&
  compile|all)
    step "compile_headers"
    timeout 300 bench/compile_headers.sh build-gpu 2>&1 | tee "$out/compile_headers.log"
    step "tests/gpu: published kernels"
    timeout 200 build-gpu/tests/refinery_gpu_tests -ts='published*' 2>&1 | tee "$out/gpu_published.log" | tail -30 ;;&
  figures|all)
    step "eval_breakdown"
    timeout 240 bench/eval_breakdown.sh 2>&1 | tee "$out/breakdown.log" | tail -30
    step "timing_floor"
    timeout 300 bench/timing_floor.sh build-gpu 5 2>&1 | tee "$out/floor.log" | tail -20 ;;
esac
step done
