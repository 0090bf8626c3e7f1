#!/usr/bin/env bash
# On a GPU host: cold and cached compile time of one ReLU candidate (level1/19)
# with each header choice: ATen/core/Tensor.h with per-operator headers,
# <torch/torch.h> and <torch/extension.h> (refinery's own), each of the last
# two lean (the default) and full (--full-headers); and the load_inline-style
# published kernel (tests/fixtures/candidates/published/inline_relu.cu), lean
# and full. Each cold compile gets a fresh cache. Prints a table with where
# the time went (refinery's compile steps: nvcc's plan, the host front end and
# the device branch run at once, then the host compile and link); the JSON
# results go to $OUT (or /tmp).
#
#   [REFINERY_COMPILE_VARIANTS="aten torch:lean ..."] bench/compile_headers.sh [BUILD_DIR]   (default build-gpu)
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
cp tests/fixtures/candidates/published/inline_relu.cu "$work/inline.cu"
printf "%-16s %8s %8s %-14s %s\n" header cold_s cached_s status "steps (s); headers"
# REFINERY_COMPILE_VARIANTS picks some of them, e.g. "torch:lean extension:lean".
for v in ${REFINERY_COMPILE_VARIANTS:-aten torch:lean torch:full extension:lean extension:full inline:lean inline:full}; do
  src=${v%%:*}
  flags=()
  [[ $v == *:full ]] && flags=(--full-headers)
  cache=$work/cache-${v/:/-}
  for pass in cold warm; do
    "$bin/refinery" eval --problem level1/19 --candidate "$work/$src.cu" --backend cuda --size small --no-timing \
      --json --cache-dir "$cache" "${flags[@]}" > "$out/compile-${v/:/-}.$pass.json" 2> "$work/$v.$pass.err" || true
  done
  python3 - "$out/compile-${v/:/-}.cold.json" "$out/compile-${v/:/-}.warm.json" "$v" <<'PY'
import json, sys
try:
    cold, warm = (json.load(open(p)) for p in sys.argv[1:3])
except (OSError, ValueError) as e:
    print("%-16s (no result: %s)" % (sys.argv[3], e)); sys.exit()
c = cold.get("compile", {})
steps = ", ".join("%s %.2f" % kv for kv in c.get("steps", {}).items())
print("%-16s %8.2f %8.3f %-14s %s; %s" % (sys.argv[3], c.get("seconds", 0), warm.get("phases_ms", {}).get("compile", 0) / 1000,
                                       cold["status"], steps, c.get("headers") or "-"))
PY
done
echo "(cold: a fresh cache; cached: the second evaluation's compile phase; steps of the cold compile)"

# Where the time goes: nvcc's own phases, one after another (nvcc -time), for
# the <torch/torch.h> candidate compiled lean (its lean headers are kept in the
# cache), and what the host front end's input is made of, by header family.
obj=""
for d in "$work"/cache-torch-lean/objects/*/*; do [ -f "$d/candidate.cu" ] && [ -d "$d/lean" ] && obj=$d; done
if [ -n "$obj" ]; then
  python3 - "$out/compile-torch-lean.cold.json" "$obj" "$work" <<'PY'
import collections, json, re, shlex, subprocess, sys
cold, obj, work = sys.argv[1:4]
argv = shlex.split(json.load(open(cold))["compile"]["command"])
fixed = []
for a in argv:
    if a.startswith("-I") and a.endswith("/lean"): a = "-I" + obj + "/lean"
    elif a.endswith("/candidate.cu"): a = obj + "/candidate.cu"
    elif a.endswith("/lib.so"): a = work + "/phases.so"
    fixed.append(a)
subprocess.run(["mkdir", "-p", work + "/keep"])
fixed += ["-time", work + "/phases.csv", "--keep", "--keep-dir", work + "/keep"]
r = subprocess.run(fixed, capture_output=True, text=True)
if r.returncode: print("nvcc -time failed:", r.stderr[-500:]); sys.exit()
print("\nnvcc's phases, one after another, <torch/torch.h> lean (ms):")
total = 0
for row in list(open(work + "/phases.csv"))[1:]:
    f = [x.strip() for x in row.split(",")]
    if len(f) > 2 and f[1] and "driver" not in f[1]:
        print("  %-24s %8.0f" % (f[1], float(f[-2]))); total += float(f[-2])
print("  %-24s %8.0f" % ("sum", total))
sizes = collections.Counter(); cur = None
for name in subprocess.run(["ls", work + "/keep"], capture_output=True, text=True).stdout.split():
    if name.endswith(".cpp4.ii"):
        for line in open(work + "/keep/" + name, errors="replace"):
            m = re.match(r'# \d+ "([^"]+)"', line)
            if m: cur = m.group(1); continue
            f = cur or ""
            g = ("ATen/ops" if "/ATen/ops/" in f else "ATen/core" if "/ATen/core/" in f else "ATen/cuda" if "/ATen/cuda/" in f
                 else "ATen other" if "/ATen/" in f else "c10" if "/c10/" in f else "torch/csrc" if "/torch/csrc/" in f
                 else "CUDA toolkit" if "cuda" in f else "libstdc++/libc" if f.startswith("/usr/include") or "/c++/" in f
                 else "other")
            sizes[g] += len(line)
print("host front end's input by family (MB): " + ", ".join("%s %.2f" % kv for kv in
      sorted(((k, v / 1e6) for k, v in sizes.items()), key=lambda kv: -kv[1])))
PY
fi
