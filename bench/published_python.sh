#!/usr/bin/env bash
# Published KernelBench-format answers (tests/fixtures/published_python, each
# unchanged, provenance and the published claim in MANIFEST.json) evaluated as
# they were published: verdict, speedup and the claim side by side.
#
#   bench/published_python.sh [BUILD_DIR] [BACKEND] [SIZE] [SECONDS_EACH]   (default build-gpu cuda full 120)
#
# Prints one row per kernel and writes the JSON rows to $OUT/published_python.json (or /tmp).
# First every kernel is built and checked without timing, REFINERY_PUBLISHED_JOBS (default 6) at
# once, so that the compiles (most of the time, cold) overlap; then each is evaluated alone, its
# build a cache hit, so that no timing shares the GPU. The row's wall_s is that second evaluation's.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-gpu}
backend=${2:-cuda}
size=${3:-full}
each=${4:-120}
out=${OUT:-/tmp}
python3 - "$build" "$backend" "$size" "$each" "$out" <<'PY'
import concurrent.futures, json, os, subprocess, sys, time
build, backend, size, each, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
folder = "tests/fixtures/published_python"
kernels = json.load(open(os.path.join(folder, "MANIFEST.json")))


def evaluate(k, *flags):
    try:
        r = subprocess.run([build + "/refinery", "eval", "--problem", k["problem"], "--candidate",
                            os.path.join(folder, k["file"]), "--backend", backend, "--size", size, "--json",
                            "--timeout", str(each), *flags], capture_output=True, text=True, timeout=each + 60)
        return json.loads(r.stdout) if r.stdout.strip().startswith("{") else {"status": "error", "message": r.stderr[-300:]}
    except subprocess.TimeoutExpired:
        return {"status": "harness timeout", "message": ""}


t0 = time.time()
with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("REFINERY_PUBLISHED_JOBS", "6"))) as pool:
    built = list(pool.map(lambda k: evaluate(k, "--no-timing"), kernels))
from collections import Counter
print("built and checked without timing, side by side: %.0f s, %s" % (
    time.time() - t0, dict(Counter(j.get("status") for j in built))), flush=True)
rows = []
for k, unt in zip(kernels, built):
    t0 = time.time()
    j = evaluate(k)
    row = {"file": k["file"], "problem": k["problem"], "source": k["source"], "status": j.get("status"),
           "speedup": j.get("speedup"), "library_only": j.get("library_only", False),
           "message": (j.get("message") or "")[:200], "claim": k.get("claim"), "wall_s": round(time.time() - t0, 1),
           "untimed_status": unt.get("status"), "compile_ms": (unt.get("phases_ms") or {}).get("compile")}
    rows.append(row)
    json.dump(rows, open(os.path.join(out, "published_python.json"), "w"), indent=1)
    sp = "%.2fx" % row["speedup"] if row["speedup"] else "-"
    print("%-48s %-10s %-14s %7s %s | claim: %s" % (k["file"][:48], k["problem"], row["status"], sp,
                                                   "(library only)" if row["library_only"] else "", k.get("claim")),
          flush=True)
print(Counter(r["status"] for r in rows))
PY
