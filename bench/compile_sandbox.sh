#!/usr/bin/env bash
# What the compilers' sandbox costs: cold compiles (a fresh cache each, so the
# precompiled header is built too) of the same sources by two builds of
# refinery, interleaved so that both see the same load: BEFORE (a build
# without the sandbox, e.g. of the commit before it) and AFTER. Per run it
# prints the compile time refinery records for the candidate (`compile.seconds`:
# every step, sandbox set-up included), and the whole `refinery eval`'s wall
# time and CPU time (user + system, its children's included: mostly the
# compilers'; on a loaded machine the steadier figure); then the medians. A cpu candidate (g++, with the precompiled header)
# and, where nvcc is found, a cuda one (nvcc's plan and split steps; no GPU
# needed: the evaluation itself fails after the compile, which is all this
# measures).
#
#   bench/compile_sandbox.sh BEFORE_BUILD_DIR AFTER_BUILD_DIR [RUNS]   (default 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:?BEFORE_BUILD_DIR}
after=${2:?AFTER_BUILD_DIR}
runs=${3:-3}
work=$(mktemp -d /tmp/refinery-sandbox-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
cases=("cpu tests/fixtures/candidates/relu_correct.cpp")
[ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc > /dev/null && cases+=("cuda tests/fixtures/candidates/relu_cuda_correct.cu")
printf "%-5s %-7s %3s %10s %10s %10s\n" backend build run compile_s eval_s eval_cpu_s
for c in "${cases[@]}"; do
  backend=${c%% *}
  src=${c#* }
  for run in $(seq 1 "$runs"); do
    for which in before after; do
      bin=$before
      [ "$which" = after ] && bin=$after
      cache=$work/cache-$backend-$which-$run
      /usr/bin/time -f "%e %U %S" -o "$work/time" \
        "$bin/refinery" eval --problem level1/19 --candidate "$src" --backend "$backend" --size small --no-timing \
        --json --cache-dir "$cache" --problems problems > "$work/$backend-$which-$run.json" 2> /dev/null || true
      python3 - "$work/$backend-$which-$run.json" "$backend" "$which" "$run" "$work/time" <<'PY' | tee -a "$work/rows"
import json, sys
path, backend, which, run, times = sys.argv[1:]
try:
    c = json.load(open(path)).get("compile", {})
except (OSError, ValueError):
    c = {}
wall, user, system = (float(x) for x in open(times).read().split()[-3:])
print("%-5s %-7s %3s %10.2f %10.2f %10.2f" % (backend, which, run, c.get("seconds", float("nan")), wall, user + system))
PY
    done
  done
done
python3 - "$work/rows" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
for backend in sorted({r[0] for r in rows}):
    med = {w: [statistics.median(float(r[k]) for r in rows if r[0] == backend and r[1] == w) for k in (3, 4, 5)]
           for w in ("before", "after")}
    b, a = med["before"], med["after"]
    print("%s medians: compile %.2f s -> %.2f s (%+.1f%%), eval wall %.2f s -> %.2f s (%+.1f%%), eval CPU %.2f s -> %.2f s (%+.1f%%)"
          % ((backend,) + sum(((b[k], a[k], 100 * (a[k] / b[k] - 1)) for k in range(3)), ())))
PY
