#!/usr/bin/env bash
# One GPU-host session's checks, in the order given, each cut to what is left of
# the session's budget so that a short call still leaves its logs: build
# (scripts/gpu-host.sh), one full-size evaluation, then the stages named.
# Logs go to $OUT (or /tmp/refinery-gpu).
#
#   bench/gpu_session.sh STAGE...     (default: attacks tests)
#
#   attacks    the attack suite on the cuda backend (tests/gpu)
#   tests      the cuda end-to-end and profile tests
#   published  the published-kernel tests (cublas: only those that call cuBLAS)
#   profile    the CUPTI and ncu profile tests
#   probe      one CUPTI-profiled evaluation at each of REFINERY_PROBE_SIZES (default small full):
#              status, phase and where the profile's time went (REFINERY_PROBE_TIMEOUT s each, default 60)
#   compile    compile_headers.sh (cold and cached compile per header)
#   spread     spread.sh at full size: how well a speedup is known, idle and loaded
#   figures    eval_breakdown.sh and timing_floor.sh (breakdown, floor: one of them)
#   watch      watch_cost.sh: the launch watch on and off, and the checks' wall time
#   python     Python candidates: what this host's Python offers (headers, triton, pybind11), the
#              tests/gpu Python cases (load_inline CUDA, Triton, plain; cold and cached wall times as
#              MESSAGE lines), problems check --python on a few problems, python_overhead.sh
#   standby    the tests/gpu Python cases, then refinery_bench_python_standby on cuda (standby judges)
#   pypublished published_python.sh: the published KernelBench answers in Python, verdict beside claim
#   quickstart the quickstart on cuda (runs/quickstart-gpu): its report (json, txt, html) and
#              every attempt's verdict, speedup and speed-of-light fraction
#   doctor     refinery doctor --backend cuda, at each of REFINERY_DOCTOR_SIZES (default small)
#   self       the reference as its own candidate at the small size, traced, launch watch on and off:
#              per call, the reference's events, the candidate's claims, its floor and each window
#   batch      batch_size.sh on cuda at the small size: the reference's time per call against the batch
#   draws      draw_cost.py: a timed call's fresh inputs, shifted copy (the old way) against a fresh draw
#   integrity  the exploit catalogue on cuda at full size (tests/integrity, docs/integrity.md;
#              REFINERY_INTEGRITY_ONLY=word,... runs only the entries whose candidate path has one)
#   generalize issue 36: problems check at full size with --hidden-shapes 3, or --precision bf16
#              with REFINERY_GEN_KIND=bf16 (no timing; REFINERY_GEN_LEVELS, default 1 2 3, or the
#              IDs in REFINERY_GEN_IDS; chunks of 20 in two lanes; bench/generalize_summary.py counts
#              what passed and the time added)
#   sense      bench/precision_sense.py on cuda at full size: which precisions make sense for each
#              problem (its reference in bf16 and fp16 against itself in float64)
#   check      problems check at full size on cuda, one group at a time (REFINERY_CHECK_IDS: groups
#              between spaces, IDs within a group between commas; default set:level1 set:level2
#              set:level3); REFINERY_CHECK_FLAGS, e.g. --compat kernelbench; REFINERY_CHECK_TAG
#              names the JSON files ($OUT/TAG_GROUP.json, default tag check); REFINERY_CHECK_CAP
#              caps each group's seconds (default 400)
#
# REFINERY_SESSION_S (default 570) is the whole call's budget in seconds;
# REFINERY_SESSION_EVAL=0 leaves out the one full-size evaluation; REFINERY_SESSION_BUILD=0 the
# build (for a second session beside one that built).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/refinery-gpu}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
budget=${REFINERY_SESSION_S:-570}
start=$(date +%s)
step() { echo "== $(( $(date +%s) - start )) s: $*"; }
# left CAP: seconds this step may take, at most CAP, never past the budget.
left() {
  local rest=$(( budget - ($(date +%s) - start) ))
  (( rest > $1 )) && rest=$1
  echo $(( rest > 5 ? rest : 5 ))
}
# The GPU tests and doctor run in a cgroup of their own (scripts/own-cgroup.sh),
# so that the runner's memory cgroup applies where the host lets it.
gpu_tests() {  # LOG CAP FILTER
  timeout "$(left "$2")" scripts/own-cgroup.sh build-gpu/tests/refinery_gpu_tests -ts="$3" > "$out/$1" 2>&1
  tail -30 "$out/$1"
}

if [ "${REFINERY_SESSION_BUILD:-1}" = 1 ]; then
step build
if ! { time scripts/gpu-host.sh build; } > "$out/build.log" 2>&1; then
  tail -60 "$out/build.log"
  exit 1
fi
tail -4 "$out/build.log"
fi
if [ "${REFINERY_SESSION_EVAL:-1}" = 1 ]; then
step "one full-size evaluation"
timeout "$(left 120)" build-gpu/refinery eval --problem level1/19 --candidate tests/fixtures/candidates/relu_cuda_correct.cu \
  --backend cuda --size full --json > "$out/eval_full.json" 2> "$out/eval_full.err"
python3 - "$out/eval_full.json" <<'PY' || tail -20 "$out/eval_full.err"
import json, sys
j = json.load(open(sys.argv[1]))
print(j["status"], j["message"], "trusted:", j.get("trusted"), "missing:", j.get("sandbox", {}).get("missing"))
print("phases_ms:", {k: round(v) for k, v in j["phases_ms"].items()})
t = j.get("timing") or {}
if t:
    print("candidate %.4f ms (claimed %.4f, judge overhead %.4f, floored %d of %d, checked %d), reference %.4f ms, "
          "uncertainty %.2f%%" % (
        t["candidate"]["median_ms"], t["claimed_median_ms"], t["judge_overhead_ms"], t["floored_calls"],
        t["candidate"]["trials"], t["checked_calls"], t["reference"]["median_ms"], 100 * t.get("uncertainty", 0)))
PY
fi

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(attacks tests)
for stage in "${stages[@]}"; do
  case "$stage" in
    attacks)
      step "tests/gpu: attacks"
      gpu_tests gpu_attacks.log 300 'attacks*' ;;
    tests)
      step "tests/gpu: eval and profile"
      gpu_tests gpu_tests.log 280 'eval end to end*,*profil*' ;;
    published)
      step "tests/gpu: published kernels"
      gpu_tests gpu_published.log 280 'published*' ;;
    cublas)
      step "tests/gpu: published kernels that call cuBLAS"
      timeout "$(left 200)" build-gpu/tests/refinery_gpu_tests -ts='published*' -tc='cuBLAS*' > "$out/gpu_cublas.log" 2>&1
      tail -30 "$out/gpu_cublas.log" ;;
    integrity)
      step "tests/gpu: the exploit catalogue"
      timeout "$(left 300)" build-gpu/tests/refinery_gpu_tests -ts='integrity*' -s > "$out/gpu_integrity.log" 2>&1
      grep -E "MESSAGE|ERROR|test cases" "$out/gpu_integrity.log" | sed 's/.*MESSAGE: //' | tail -40 ;;
    profile)
      step "tests/gpu: profile"
      gpu_tests gpu_profile.log 300 '*profil*' ;;
    probe)
      for size in ${REFINERY_PROBE_SIZES:-small full}; do
        step "profiled evaluation, $size"
        t0=$(date +%s.%N)
        timeout "$(left $(( ${REFINERY_PROBE_TIMEOUT:-60} + 30 )))" build-gpu/refinery eval --problem level1/19 \
          --candidate tests/fixtures/candidates/relu_cuda_correct.cu --backend cuda --size "$size" --profiler cupti \
          --timeout "${REFINERY_PROBE_TIMEOUT:-60}" --json > "$out/probe_$size.json" 2> "$out/probe_$size.err"
        echo "exit $? after $(python3 -c "import time; print(round(time.time() - $t0, 1))") s"
        python3 - "$out/probe_$size.json" <<'PY' || tail -5 "$out/probe_$size.err"
import json, sys
j = json.load(open(sys.argv[1]))
print(j["status"], j.get("phase", ""), j["message"][:300])
print("phases_ms:", {k: round(v) for k, v in j["phases_ms"].items()})
p = j.get("profile") or {}
print("profile: overhead %s ms, activity %s ms, counters %s ms, candidate kernels %d, note: %s" % (
    p.get("overhead_ms"), p.get("activity_ms"), p.get("counters_ms"), len((p.get("candidate") or {}).get("kernels") or []),
    (p.get("counters_note") or "")[:300]))
PY
      done ;;
    compile)
      step "compile_headers"
      # Its JSON results stay on the host: few files come back from a call.
      OUT=/tmp/refinery-compile timeout "$(left 300)" bench/compile_headers.sh build-gpu > "$out/compile_headers.log" 2>&1
      cat "$out/compile_headers.log" ;;
    spread)
      step "spread (cuda, full size)"
      REFINERY_SPREAD_BACKEND=cuda REFINERY_SPREAD_SIZE=full timeout "$(left 200)" bench/spread.sh build-gpu 5 \
        > "$out/spread.log" 2>&1
      cat "$out/spread.log" ;;
    figures|breakdown|floor)
      if [ "$stage" != floor ]; then
        step "eval_breakdown"
        timeout "$(left 220)" bench/eval_breakdown.sh > "$out/breakdown.log" 2>&1
        tail -32 "$out/breakdown.log"
      fi
      if [ "$stage" != breakdown ]; then
        step "timing_floor"
        REFINERY_FLOOR_SIZES="${REFINERY_FLOOR_SIZES:-18 20 22 24 26 28 30}" timeout "$(left "${REFINERY_FLOOR_CAP:-150}")" \
          bench/timing_floor.sh build-gpu 5 > "$out/floor.log" 2>&1
        tail -40 "$out/floor.log"
      fi ;;
    check)
      # One problems check per group (a word of REFINERY_CHECK_IDS, commas between its IDs),
      # each into its own JSON, so a cut-off call keeps the groups it finished.
      tag=${REFINERY_CHECK_TAG:-check}
      for group in ${REFINERY_CHECK_IDS:-set:level1 set:level2 set:level3}; do
        name=${group//[^A-Za-z0-9]/_}
        step "problems check $group --size full ${REFINERY_CHECK_FLAGS:-}"
        # shellcheck disable=SC2086
        timeout "$(left "${REFINERY_CHECK_CAP:-400}")" build-gpu/refinery problems check ${group//,/ } --backend cuda \
          --size full --trials 2 --timing-trials 10 ${REFINERY_CHECK_FLAGS:-} --json \
          > "$out/${tag}_$name.json" 2> "$out/${tag}_$name.err"
        python3 - "$out/${tag}_$name.json" <<'PY' || tail -20 "$out/${tag}_$name.err"
import json, sys
rows = json.load(open(sys.argv[1]))
bad = [r for r in rows if not r.get("ok")]
print(len(rows) - len(bad), "of", len(rows), "ok")
for r in rows:
    ms = r.get("reference_ms")
    print(r["problem"], "ok" if r.get("ok") else "FAILED", "%.3f ms" % ms if ms else "", r.get("message", "")[:300])
PY
      done
      ;;
    standby)
      # The runner that takes its job after its start (the Triton and load_inline cases on cuda),
      # then what a standby judge saves (bench/python_standby.cc; 8 s between evaluations).
      step "standby: tests/gpu Python cases"
      gpu_tests gpu_python.log 220 'python candidates*'
      grep -E "MESSAGE|ERROR|test cases" "$out/gpu_python.log" | cut -c1-300
      step "standby: refinery_bench_python_standby 4 8 cuda"
      timeout "$(left 240)" scripts/own-cgroup.sh build-gpu/refinery_bench_python_standby 4 8 cuda 2>&1 \
        | tee "$out/python_standby.txt" ;;
    python)
      step "python: the host's Python"
      python3 - <<'PY' 2>&1 | tee "$out/python_probe.txt"
import os, sys, sysconfig
inc = sysconfig.get_paths()["include"]
print(sys.executable, sys.version.split()[0], "Python.h:", os.path.exists(os.path.join(inc, "Python.h")))
for name in ("torch", "triton", "pybind11"):
    try:
        print(name, __import__(name).__version__ if name != "pybind11" else __import__(name).get_include())
    except Exception as e:
        print("no", name, e)
PY
      ls -la build-gpu/refinery-python-runner || echo "no refinery-python-runner: the build found no Python with headers"
      # What the Python runner's start (about 3-6 s on the H100, 0.34 s for the C++ runner) is made of.
      python3 - <<'PY'
import subprocess, sys, time
for code in ("import torch", "import torch; torch.zeros(1, device='cuda')", "import torch, triton"):
    t0 = time.time()
    subprocess.run([sys.executable, "-I", "-c", code], capture_output=True)
    print("%.2f s wall: python3 -I -c %r" % (time.time() - t0, code))
PY
      # The runner's interpreter writes no bytecode (config.write_bytecode = 0): where the host's
      # packages have none of their own, each start compiles every module it imports.
      python3 - <<'PY'
import importlib.util, os, sys, time
for name in ("torch", "triton"):
    spec = importlib.util.find_spec(name)
    if not spec:
        continue
    root = os.path.dirname(spec.origin)
    py = cached = 0
    for folder, _, files in os.walk(root):
        for f in files:
            if f.endswith(".py"):
                py += 1
                cached += os.path.exists(importlib.util.cache_from_source(os.path.join(folder, f)))
    print(name, root, "writable" if os.access(root, os.W_OK) else "read-only", "%d .py, %d with bytecode" % (py, cached))
PY
      python3 - <<'PY'
import subprocess, sys, tempfile, time
for label, env in (("no bytecode written, none elsewhere (-B)", {}),
                   ("bytecode under an empty PYTHONPYCACHEPREFIX, first", {"PYTHONPYCACHEPREFIX": tempfile.mkdtemp()})):
    for k in range(2):
        t0 = time.time()
        subprocess.run([sys.executable, "-c", "import torch"] if env else [sys.executable, "-B", "-c", "import torch"],
                       capture_output=True, env={**env, "PATH": "/usr/bin:/bin"})
        print("%.2f s wall: import torch, %s, run %d" % (time.time() - t0, label, k + 1))
PY
      python3 -I -X importtime -c "import torch" 2> "$out/python_importtime.txt" > /dev/null
      sort -t'|' -k2 -n -r "$out/python_importtime.txt" | head -8
      # REFINERY_PYTHON_QUICK=probe: the probe only; 1: and the tests/gpu cases.
      [ "${REFINERY_PYTHON_QUICK:-0}" = probe ] && continue
      step "python: tests/gpu"
      gpu_tests gpu_python.log 300 'python candidates*'
      grep -E "MESSAGE" "$out/gpu_python.log" | cut -c1-300
      [ "${REFINERY_PYTHON_QUICK:-0}" = 1 ] && continue
      step "python: problems check --python"
      timeout "$(left 120)" build-gpu/refinery problems check level1/19 level2/47 level3/1 level3/28 --python \
        --backend cuda --size small --no-timing > "$out/check_python.txt" 2>&1
      tail -6 "$out/check_python.txt" | cut -c1-300
      step "python: python_overhead.sh"
      timeout "$(left 150)" bench/python_overhead.sh build-gpu 5 cuda full 2>&1 | tee "$out/python_overhead.txt" ;;
    quickstart)
      step "quickstart on cuda, and its report"
      rm -rf runs/quickstart-gpu
      timeout "$(left 300)" build-gpu/refinery run configs/quickstart.yaml --out runs/quickstart-gpu \
        > "$out/quickstart.log" 2>&1
      tail -16 "$out/quickstart.log"
      cp runs/quickstart-gpu/report.json runs/quickstart-gpu/report.txt runs/quickstart-gpu/report.html \
        runs/quickstart-gpu/attempts.jsonl "$out/" 2>/dev/null
      python3 - runs/quickstart-gpu/attempts.jsonl <<'PY'
import json, os, sys
for line in open(sys.argv[1]):
    a = json.loads(line)
    print(a["key"], a["status"], a.get("speedup"), "sol", a.get("sol_fraction"), "lib" if a.get("library_only") else "",
          "unstable" if a.get("unstable") else "", a.get("environment", {}).get("gpu", ""))
    if a.get("unstable"):  # why: the interval's width, or the judge's clock raising the claims
        model, strategy, problem, sample, turn = a["model"], a["strategy"], a["problem"], a["sample"], a["turn"]
        path = os.path.join("runs/quickstart-gpu/attempts", model, strategy, problem, "s%d" % sample, "t%d" % turn,
                            "result.json")
        try:
            t = json.load(open(path)).get("timing") or {}
            print("   timing:", {k: t.get(k) for k in ("uncertainty", "judge_raise_ms", "claimed_median_ms",
                                                       "measurements", "batch_calls", "floor_median_ms", "lower_bound")},
                  "ref median", (t.get("reference") or {}).get("median_ms"), "cand median", (t.get("candidate") or {}).get("median_ms"))
        except (OSError, ValueError) as e:
            print("   no result.json:", e)
PY
      ;;
    pypublished)
      step "published_python.sh"
      OUT="$out" timeout "$(left 500)" bench/published_python.sh build-gpu cuda full 90 2>&1 | cut -c1-260 ;;
    watch)
      step "watch_cost"
      timeout "$(left 200)" bench/watch_cost.sh build-gpu "${REFINERY_WATCH_REPEATS:-3}" > "$out/watch.log" 2>&1
      cat "$out/watch.log" ;;
    batch)
      step "batch size (cuda, small)"
      REFINERY_BENCH_BACKEND=cuda REFINERY_BENCH_SIZE=small timeout "$(left 200)" bench/batch_size.sh build-gpu 3 \
        "${REFINERY_BATCH_SIZES:-1 8 64}" > "$out/batch.log" 2>&1
      cat "$out/batch.log" ;;
    generalize)
      # Issue 36 on the GPU: references at full size checked at 3 hidden shapes (REFINERY_GEN_KIND=hidden)
      # or at bf16 (bf16), without timing, for the levels in REFINERY_GEN_LEVELS (default 1 2 3), in
      # chunks of 20 problems so that a call cut short keeps the chunks it finished, two lanes side
      # by side (three ran level 3 out of memory once). Chunks go to scratch and are merged into one
      # file per kind: a call brings back only a few files. REFINERY_GEN_FLAGS adds flags.
      kind=${REFINERY_GEN_KIND:-hidden}
      flag=$([ "$kind" = bf16 ] && echo "--precision bf16" || echo "--hidden-shapes 3")
      step "problems check $flag at full size, ${REFINERY_GEN_IDS:+the IDs given}${REFINERY_GEN_IDS:-levels ${REFINERY_GEN_LEVELS:-1 2 3}}, two lanes"
      scratch=$(mktemp -d)
      ids=${REFINERY_GEN_IDS:-$(for l in ${REFINERY_GEN_LEVELS:-1 2 3}; do ls "problems/level$l" | sort -V | cut -d_ -f1 | sed "s#^#level$l/#"; done)}
      # shellcheck disable=SC2086
      printf '%s\n' $ids | split -l 20 - "$scratch/chunk_"
      lane() {  # every other chunk, from $1
        local n=0
        for chunk in "$scratch"/chunk_*; do
          n=$((n + 1))
          (( n % 2 == $1 )) || continue
          # shellcheck disable=SC2046,SC2086
          timeout "$(left 300)" build-gpu/refinery problems check $(cat "$chunk") --backend cuda --size full \
            --no-timing $flag ${REFINERY_GEN_FLAGS:-} --json > "$chunk.json" 2> "$chunk.err"
          echo "$(head -1 "$chunk")..: exit $?" >> "$scratch/walls.txt"
        done
      }
      lane 0 & lane 1 & wait
      python3 - "$scratch" "$out/generalize_$kind.json" <<'PY'
import glob, json, sys
rows = []
for f in sorted(glob.glob(sys.argv[1] + "/chunk_*.json")):
    try:
        rows += json.load(open(f))
    except ValueError:
        print("cut short:", open(f[:-5]).read().split())
json.dump(rows, open(sys.argv[2], "w"))
PY
      cat "$scratch/walls.txt"
      python3 bench/generalize_summary.py "$out" | tee "$out/generalize_$kind.txt" ;;
    sense)
      # Which precisions make sense for each problem (bench/precision_sense.py): every reference.py
      # at full size in bf16 and fp16 against itself in float64 on the same rounded values.
      step "precision_sense: all 250 at full size, bf16 and fp16 against float64"
      ids=$(for d in problems/level*/*/; do l=${d#problems/}; echo "${l%%/*}/$(basename "$d" | cut -d_ -f1)"; done | sort -V)
      # shellcheck disable=SC2086
      timeout "$(left "${REFINERY_SENSE_CAP:-400}")" python3 bench/precision_sense.py --size full --device cuda \
        --refinery build-gpu/refinery --json "$out/precision_sense.json" $ids > "$out/precision_sense.txt" 2>&1
      grep -v " ok " "$out/precision_sense.txt" | cut -c1-250 ;;
    draws)
      step "fresh inputs: shifted copy against a fresh draw"
      timeout "$(left 120)" python3 bench/draw_cost.py cuda 10 2>&1 | tee "$out/draws.log" ;;
    doctor)
      step doctor
      for size in ${REFINERY_DOCTOR_SIZES:-small}; do
        timeout "$(left 120)" scripts/own-cgroup.sh build-gpu/refinery doctor --backend cuda --size "$size" \
          > "$out/doctor_$size.log" 2>&1
        echo "exit $?"
        cat "$out/doctor_$size.log"
      done ;;
    self)
      # Why the reference reads slower than itself at the small size (doctor: 0.863x on the H100):
      # its C++ reference as the candidate, traced, with the launch watch on and off.
      step "the reference against itself, traced (small)"
      for watch in on off batch16; do
        flag=(); [ "$watch" = off ] && flag=(--no-launch-watch)
        [ "$watch" = batch16 ] && flag=(--batch-calls 16)
        timeout "$(left 120)" build-gpu/refinery eval --problem level1/19 --backend cuda --size small \
          --candidate problems/level1/19_relu/reference.cpp --timing-trace --json "${flag[@]}" \
          > "$out/self_$watch.json" 2> "$out/self_$watch.err"
        python3 - "$out/self_$watch.json" "$watch" <<'PY' || tail -5 "$out/self_$watch.err"
import json, statistics as st, sys
j = json.load(open(sys.argv[1])); t = j.get("timing") or {}; tr = t.get("trace") or {}
b = tr.get("batch_calls", 1)
per = lambda xs: round(st.median(xs) / b * 1000, 2) if xs else None
print("watch", sys.argv[2], j.get("status"), "speedup %.3f" % (t.get("speedup") or 0), "batch", b,
      "us/call: ref events", round((t.get("reference") or {}).get("median_ms", 0) * 1000, 2),
      "cand claim", round((t.get("claimed_median_ms") or 0) * 1000, 2),
      "cand floor", round((t.get("floor_median_ms") or 0) * 1000, 2),
      "| windows/call: ref", per(tr.get("reference_windows_ms")), "cand", per(tr.get("candidate_windows_ms")),
      "claims", per(tr.get("candidate_claims_ms")), "| judge gap ms", tr.get("judge_gap_ms"),
      "window cost ms", tr.get("window_cost_ms"), "slack ms", tr.get("slack_ms"), "floored", t.get("floored_calls"),
      "calibration", {k: v for k, v in (tr.get("calibration") or {}).items() if k.startswith("fit") or k == "noise_ms"})
PY
      done ;;
    *) echo "unknown stage '$stage'" >&2 ;;
  esac
done
step done
