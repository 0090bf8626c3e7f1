#!/usr/bin/env bash
# On a GPU host: cold and cached compile time of one ReLU candidate (level1/19)
# with each header choice: ATen/core/Tensor.h with per-operator headers,
# <torch/torch.h>, and <torch/extension.h> (refinery's own). Each cold compile
# gets a fresh cache; then nvcc's own per-step times (--time) for the same
# command, to show where the time goes (cudafe++, cicc, ptxas, the host
# compile, the link). Prints a table; the CSVs go to $OUT (or /tmp).
#
#   bench/compile_headers.sh [BUILD_DIR]      (default build-gpu)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build-gpu}
out=${OUT:-/tmp/refinery-compile}
mkdir -p "$out"
work=$(mktemp -d /tmp/refinery-headers-XXXXXX)
base=tests/fixtures/candidates/relu_cuda_correct.cu
body() { sed -e '/^#include <ATen/d' -e '/^#include <cuda_runtime.h>/d' -e 's/^\/\/ An honest ReLU.*/\/\/ header variant/' "$base"; }
cp "$base" "$work/aten.cu"
{ echo '#include <torch/torch.h>'; echo '#include <cuda_runtime.h>'; body; } > "$work/torch.cu"
{ echo '#include <torch/extension.h>'; body; } > "$work/extension.cu"
printf "%-10s %8s %8s %8s  %s\n" header cold_s cached_s status "nvcc steps over 0.5 s (s)"
for v in aten torch extension; do
  cache=$work/cache-$v
  "$bin/refinery" eval --problem level1/19 --candidate "$work/$v.cu" --backend cuda --size small --no-timing \
    --json --cache-dir "$cache" > "$work/$v.cold.json" 2> "$work/$v.cold.err" || true
  "$bin/refinery" eval --problem level1/19 --candidate "$work/$v.cu" --backend cuda --size small --no-timing \
    --json --cache-dir "$cache" > "$work/$v.warm.json" 2> "$work/$v.warm.err" || true
  cmd=$(python3 -c "import json; print(json.load(open('$work/$v.cold.json'))['compile']['command'])")
  # The same nvcc command, run plainly with --time (one step after another) into a scratch folder.
  mkdir -p "$work/t-$v" && (cd "$work/t-$v" && eval "$cmd --time $out/nvcc-time-$v.csv -o $work/t-$v/lib.so" > /dev/null 2>&1 || true)
  steps=$(python3 - "$out/nvcc-time-$v.csv" <<'PY'
import csv, sys
try:
    rows = list(csv.reader(open(sys.argv[1])))
except OSError:
    print("(no --time output)"); sys.exit()
parts = []
for r in rows[1:]:
    if len(r) >= 4:
        try: ms = float(r[3])
        except ValueError: continue
        if ms > 500: parts.append("%s %.1f" % (r[1].strip(), ms / 1000))
print(", ".join(parts))
PY
)
  python3 - "$work/$v.cold.json" "$work/$v.warm.json" "$v" "$steps" <<'PY'
import json, sys
cold, warm = (json.load(open(p)) for p in sys.argv[1:3])
c, w = cold.get("compile", {}), warm.get("compile", {})
print("%-10s %8.2f %8.3f %8s  %s" % (sys.argv[3], c.get("seconds", 0), warm.get("phases_ms", {}).get("compile", 0) / 1000,
                                     cold["status"], sys.argv[4]))
PY
done
echo "(cold: a fresh cache, refinery's split nvcc; cached: the second evaluation's compile phase)"
