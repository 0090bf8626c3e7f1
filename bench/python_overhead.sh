#!/usr/bin/env bash
# What a Python candidate costs beyond a C++ one, once both are built: the
# same ReLU (level1/19) as a C++ candidate and as plain-PyTorch and
# load_inline ModelNew modules, each evaluated N times from the cache
# (correctness only, so that timing noise stays out), side by side in one
# run. Prints the median wall time of `refinery eval` and of its phases.
#
#   bench/python_overhead.sh [BUILD_DIR] [N] [BACKEND] [SIZE]   (default build 5 cpu small)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
n=${2:-5}
backend=${3:-cpu}
size=${4:-small}
cxx=tests/fixtures/candidates/relu_correct.cpp
[ "$backend" = cuda ] && cxx=tests/fixtures/candidates/relu_cuda_correct.cu
inline=tests/fixtures/python/relu_inline.py
[ "$backend" = cuda ] && inline=tests/fixtures/python/relu_cuda_inline.py
python3 - "$build" "$n" "$backend" "$size" "$cxx" tests/fixtures/python/relu_plain.py "$inline" <<'PY'
import json, statistics, subprocess, sys, time
build, n, backend, size = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
candidates = sys.argv[5:]
def once(path):
    t0 = time.time()
    out = subprocess.run([build + "/refinery", "eval", "--problem", "level1/19", "--candidate", path, "--backend",
                          backend, "--size", size, "--no-timing", "--trials", "3", "--json"],
                         capture_output=True, text=True, check=True)
    j = json.loads(out.stdout)
    return time.time() - t0, j
rows = {}
for path in candidates:
    once(path)  # builds, if it must
for k in range(n):  # interleaved, so that a slow moment of the machine falls on every candidate alike
    for path in candidates:
        wall, j = once(path)
        assert j["status"] == "correct", (path, j["status"], j["message"])
        r = rows.setdefault(path, {"wall": [], "runner": [], "load": [], "worker_wall": []})
        r["wall"].append(wall)
        for key in ("runner", "load", "worker_wall"):
            r[key].append(j["phases_ms"].get(key, 0) / 1000)
base = statistics.median(rows[candidates[0]]["wall"])
print("%-45s %9s %9s %9s %9s %9s" % ("candidate (%s, %s, %d runs)" % (backend, size, n), "wall s", "+ vs C++",
                                       "worker s", "runner s", "load s"))
for path in candidates:
    r = rows[path]
    m = {k: statistics.median(v) for k, v in r.items()}
    print("%-45s %9.3f %+9.3f %9.3f %9.3f %9.3f" % (path.split("/")[-1], m["wall"], m["wall"] - base,
                                                    m["worker_wall"], m["runner"], m["load"]))
PY
